/**
 * The activity-file aggregate (stream activity-file-{sha256}) as a decider: one
 * file (by the SHA-256 of its bytes) counts for at most one live use, a use being the entries its
 * parts became (one per sport of a multi-sport file, one per day of a file spanning days). Its
 * ActivityFileUsed is appended in the same atomic append as those entries' EntryAdded, at the
 * revision the stream was read at, so two confirmations of one file cannot both succeed. The file
 * is used while ANY entry of its last use lives; once all are deleted it is free again: the caller
 * reads those entries' streams and says whether one is still live (deletion thus needs no event
 * here, whichever way an entry is deleted).
 */
import { match } from 'ts-pattern';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { ActivityFileEvent, ActivityFileFormat, ActivityFileUsed } from '../events';

/** Record that entries count this file. */
export interface UseActivityFile {
  type: 'UseActivityFile';
  data: {
    /** 64 lower-case hex digits. */
    sha256: string;
    format: ActivityFileFormat;
    /** The entries of the file's parts, in the parts' order (at least one). */
    entryIds: number[];
    teamId: number;
    participantId: number;
    /**
     * Whether an entry of the file's last use (ActivityFileState.entryIds) is still live, as the
     * caller read their streams; ignored when the file was never used.
     */
    lastEntryLive: boolean;
  };
}
export type ActivityFileCommand = UseActivityFile;

export interface ActivityFileState {
  /** The entries of the file's last use; empty when it never was used. */
  entryIds: number[];
}

/**
 * UseActivityFile → [ActivityFileUsed] (usedAt = ctx.now).
 * @throws DomainError ACTIVITY_FILE_ALREADY_USED when an entry of the file's last use is still
 *   live; INVALID_REQUEST for a use without entries.
 */
export const activityFileDecider: Decider<ActivityFileCommand, ActivityFileEvent, ActivityFileState> = {
  initialState: () => ({ entryIds: [] }),
  decide: (command, state, ctx: DecisionContext) => match(command)
    .with({ type: 'UseActivityFile' }, ({ data }) => {
      if (data.entryIds.length === 0) throw new DomainError('INVALID_REQUEST', `file ${data.sha256}: no entry to count it`);
      if (state.entryIds.length > 0 && data.lastEntryLive) {
        throw new DomainError('ACTIVITY_FILE_ALREADY_USED', `file ${data.sha256} counts for entries ${state.entryIds.join(', ')}`);
      }
      const event: ActivityFileUsed = {
        type: 'ActivityFileUsed',
        data: { sha256: data.sha256, format: data.format, entryIds: [...data.entryIds], teamId: data.teamId, participantId: data.participantId, usedAt: ctx.now },
      };
      return [event];
    })
    .exhaustive(),
  evolve: (_state, event) => match(event)
    .with({ type: 'ActivityFileUsed' }, ({ data }) => ({ entryIds: [...data.entryIds] }))
    .exhaustive(),
};
