/**
 * The activity-file aggregate (stream activity-file-{sha256}) as a decider: one
 * file (by the SHA-256 of its bytes) counts for at most one live entry. Its ActivityFileUsed is
 * appended in the same atomic append as the entry's EntryAdded, at the revision the stream was
 * read at, so two confirmations of one file cannot both succeed. A deleted entry frees its file:
 * the caller reads the last user's entry stream and says whether that entry is still live
 * (deletion thus needs no event here, whichever way an entry is deleted).
 */
import { match } from 'ts-pattern';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { ActivityFileEvent, ActivityFileFormat, ActivityFileUsed } from '../events';

/** Record that an entry counts this file. */
export interface UseActivityFile {
  type: 'UseActivityFile';
  data: {
    /** 64 lower-case hex digits. */
    sha256: string;
    format: ActivityFileFormat;
    entryId: number;
    teamId: number;
    participantId: number;
    /**
     * Whether the entry that used the file last (ActivityFileState.entryId) is still live, as the
     * caller read its stream; ignored when the file was never used.
     */
    lastEntryLive: boolean;
  };
}
export type ActivityFileCommand = UseActivityFile;

export interface ActivityFileState {
  /** The entry that used the file last, or null when it never was. */
  entryId: number | null;
}

/**
 * UseActivityFile → [ActivityFileUsed] (usedAt = ctx.now).
 * @throws DomainError ACTIVITY_FILE_ALREADY_USED when the file's last entry is still live.
 */
export const activityFileDecider: Decider<ActivityFileCommand, ActivityFileEvent, ActivityFileState> = {
  initialState: () => ({ entryId: null }),
  decide: (command, state, ctx: DecisionContext) => match(command)
    .with({ type: 'UseActivityFile' }, ({ data }) => {
      if (state.entryId !== null && data.lastEntryLive) {
        throw new DomainError('ACTIVITY_FILE_ALREADY_USED', `file ${data.sha256} counts for entry ${state.entryId}`);
      }
      const event: ActivityFileUsed = {
        type: 'ActivityFileUsed',
        data: { sha256: data.sha256, format: data.format, entryId: data.entryId, teamId: data.teamId, participantId: data.participantId, usedAt: ctx.now },
      };
      return [event];
    })
    .exhaustive(),
  evolve: (_state, event) => match(event)
    .with({ type: 'ActivityFileUsed' }, ({ data }) => ({ entryId: data.entryId }))
    .exhaustive(),
};
