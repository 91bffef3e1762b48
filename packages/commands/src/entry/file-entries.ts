/**
 * An activity file made entries (POST /team/{id}/activity-files/confirm): one entry per part of
 * the file (a sport of a multi-sport file, a day of a file spanning days), each through the
 * entry decider's ordinary rules (the edition's window and deadline, distance limits, the
 * entry-insertion switch, moderation), and the file's ActivityFileUsed naming all of them, in ONE
 * atomic append: one part refused refuses the whole file, and nothing is appended. The file's
 * stream and the streams of the entries of its last use are read and checked at the append, so
 * the same file confirmed twice at once counts once; it is used while ANY entry of its last use
 * lives (domain entry/activity-file.ts).
 */
import {
  DomainError,
  activityFileDecider,
  editionForEntries,
  entryDecider,
  participantDecider,
  streams,
  withEdition,
  type ActivityFileFormat,
  type EntryAdded,
  type ModeratedEntry,
  type TeamDay,
} from '@sinilill/domain';
import { executeCommand, type StreamReads } from '../execute-command';
import { foldStream, idOfStream, type CommandRequest } from '../metadata';
import { decisionContext, editionSourceOf, teamOfParticipant, type CommandServiceDependencies } from '../context';
import { entriesOf, entryView, liveEntriesOf, teamDayOf, viewOfAdded, type EntryView } from './handlers';

/** One part of a file as it becomes an entry. */
export interface FileEntryPart {
  /** km, at most two decimals (the entry rules check it). */
  distance: number;
  /** A preset ActivityType key or free text. */
  entryType: string;
  /** YYYY-MM-DD, the part's local day (Europe/Tallinn). */
  performedAt: string;
}

/** What confirming a file adds: its parts, for one member. */
export interface FileEntriesInput {
  participantId: number;
  format: ActivityFileFormat;
  /** 64 lower-case hex digits: the file's stream. */
  sha256: string;
  /** At least one, in the file's order; each becomes an entry, its source the file. */
  parts: readonly FileEntryPart[];
}

/**
 * Adds an entry for each part of an activity file and records the file's use, all in one atomic
 * append. A repeat of the command (same Idempotency-Key) answers the first run's entries as they
 * are now, and the first run's position.
 * @returns the entries in the parts' order, and the position of the append's last event.
 * @throws DomainError INVALID_REQUEST (no part), NOT_FOUND (no such member), FORBIDDEN,
 *   INVALID_* (spec §5, any part), the switch and deadline codes (any part),
 *   ACTIVITY_FILE_ALREADY_USED, CONCURRENCY_CONFLICT, IDEMPOTENCY_KEY_REUSED.
 */
export async function addFileEntries(
  deps: CommandServiceDependencies,
  input: FileEntriesInput,
  request: CommandRequest,
): Promise<{ entries: EntryView[]; position: number }> {
  if (input.parts.length === 0) throw new DomainError('INVALID_REQUEST', 'a file without parts makes no entry');
  const { store } = deps;
  const { participantId, sha256, format } = input;
  const file = await fileUse(deps, sha256);
  const participantStream = streams.participant(participantId);
  // New ids for a repeat too (they are then not used): the repeat check is part of the first read.
  const entryIds: number[] = [];
  for (let i = 0; i < input.parts.length; i++) entryIds.push(await deps.ids.next('entry'));
  const entryStreams = entryIds.map((id) => streams.entry(id));
  const teamDays = await Promise.all(input.parts.map((part, i) => teamDayOf(deps, participantId, part.performedAt, entryIds[i]!)));
  const catalog = await editionSourceOf(deps).catalog();
  // The member's other entries (moderation) are found in the same read as the streams.
  const others = entriesOf(deps, participantId, input.parts.map((part) => part.performedAt), request);
  const outcome = await executeCommand(store, {
    streams: [...entryStreams, participantStream, ...file.streams],
    ...(others ? { streamsOf: others } : {}),
    ...(deps.settings ? { settings: deps.settings } : {}),
    context: await decisionContext(deps, request),
    metadata: request.metadata,
    decide: (read, requestCtx) => {
      const participant = read.fold(participantStream, participantDecider);
      const teamId = teamOfParticipant(participant);
      if (teamId === null) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
      // The participant's edition decides (its dates and deadline), and only while it takes entries.
      const ctx = withEdition(requestCtx, editionForEntries(catalog, participant.edition, requestCtx));
      const sameDay: ModeratedEntry[] = liveEntriesOf(read, read.found, participantId);
      const writes = input.parts.map((part, i) => {
        const entryId = entryIds[i]!;
        const teamDay = withEarlierParts(teamDays[i] ?? null, input.parts.slice(0, i), part.performedAt);
        const events = entryDecider.decide({
          type: 'AddEntry',
          data: {
            entryId, teamId, participantId, participantTeamId: teamId, distance: part.distance, entryType: part.entryType, performedAt: part.performedAt,
            source: { kind: 'file', format, sha256 },
            // The file's earlier parts count as the member's entries of their day (MAX_KM_PER_DAY, DUPLICATE).
            sameDay: [...sameDay],
            ...(teamDay ? { teamDay } : {}),
          },
        }, read.fold(entryStreams[i]!, entryDecider), ctx);
        sameDay.push({ entryId, distance: part.distance, entryType: part.entryType, performedAt: part.performedAt });
        return { stream: entryStreams[i]!, events };
      });
      const fileState = read.fold(file.stream, activityFileDecider);
      return [...writes, {
        stream: file.stream,
        events: activityFileDecider.decide({
          type: 'UseActivityFile',
          data: { sha256, format, entryIds, teamId, participantId, lastEntryLive: lastUseLive(read, file, fileState.entryIds) },
        }, fileState, ctx),
      }];
    },
  });
  if (outcome.repeated) return { entries: await repeatedEntries(deps, sha256, idOfStream(outcome.prior!.stream)), position: outcome.position };
  const added = outcome.events.filter((event): event is EntryAdded => event.type === 'EntryAdded');
  return { entries: added.map(viewOfAdded), position: outcome.position };
}

/** The team's day for a part, its file's earlier parts of the same day counted as the team's. */
function withEarlierParts(day: TeamDay | null, earlier: readonly FileEntryPart[], performedAt: string): TeamDay | null {
  if (!day) return null;
  const hundredths = earlier.filter((part) => part.performedAt === performedAt).reduce((sum, part) => sum + Math.round(part.distance * 100), 0);
  return { ...day, otherHundredths: day.otherHundredths + hundredths };
}

/** The file's stream and the streams of its last use's entries, as read before the decision. */
interface FileUse {
  stream: string;
  lastEntryStreams: string[];
  streams: string[];
}

/**
 * The streams a file's confirmation reads besides its entries': the file's stream, and the streams
 * of the entries of its last use (is one still live?). Read once here to learn those entries; the
 * decision reads them all again and the append checks their revisions.
 */
async function fileUse(deps: CommandServiceDependencies, sha256: string): Promise<FileUse> {
  const stream = streams.activityFile(sha256);
  const { entryIds } = foldStream(activityFileDecider, await deps.store.readStream(stream));
  const lastEntryStreams = entryIds.map((id) => streams.entry(id));
  return { stream, lastEntryStreams, streams: [stream, ...lastEntryStreams] };
}

/**
 * Whether an entry of the file's last use is live. A use recorded after the read (other entries
 * than those read) counts as live: the append's revision check then makes the command decide again.
 */
function lastUseLive(read: StreamReads, file: FileUse, entryIds: readonly number[]): boolean {
  if (entryIds.length === 0) return false;
  const current = entryIds.map((id) => streams.entry(id));
  if (current.some((stream) => !file.lastEntryStreams.includes(stream))) return true;
  return current.some((stream) => read.fold(stream, entryDecider).status === 'active');
}

/** The entries of the use whose first entry is `firstEntryId` (a repeated confirmation), as they are now. */
async function repeatedEntries(deps: CommandServiceDependencies, sha256: string, firstEntryId: number): Promise<EntryView[]> {
  const events = await deps.store.readStream(streams.activityFile(sha256));
  const use = events.map((event) => event.data as { entryIds?: number[] }).find((data) => data.entryIds?.[0] === firstEntryId);
  return Promise.all((use?.entryIds ?? [firstEntryId]).map((id) => entryView(deps, id)));
}

/**
 * Whether an activity file (by the SHA-256 of its bytes) counts for a live entry now: the upload's
 * early "already used"; the confirmation decides again under the append's check.
 */
export async function activityFileInUse(deps: CommandServiceDependencies, sha256: string): Promise<boolean> {
  const { entryIds } = foldStream(activityFileDecider, await deps.store.readStream(streams.activityFile(sha256)));
  // The entries' streams side by side: one round trip's wait, however many parts the file had.
  const entries = await Promise.all(entryIds.map((id) => deps.store.readStream(streams.entry(id))));
  return entries.some((events) => foldStream(entryDecider, events).status === 'active');
}
