/**
 * Entry commands (spec §7 POST /entry, PUT /entry/{id}/edit, PUT /entry/delete), on the write
 * path (execute-command.ts) with the entry decider. An entry's team is its participant's:
 * the participant's stream is read in the same attempt as the entry's and checked at the append
 * (zero events), so a move or deletion of the participant in between makes the command decide
 * again rather than log the distance for the old team.
 */
import {
  DomainError,
  editionForEntries,
  entryDecider,
  isPrivileged,
  participantDecider,
  editedSinceSync,
  stravaActivityDecider,
  streams,
  teamDecider,
  toHundredths,
  withEdition,
  type EntryAdded,
  type EntryEdited,
  type EntrySource,
  type ModeratedEntry,
  type TeamDay,
} from '@sinilill/domain';
import type { EventSelector, RecordedEvent } from '@sinilill/event-store';
import { executeCommand } from '../execute-command';
import { foldStream, idOfStream, type CommandRequest } from '../metadata';
import { lastPositionOf, priorCommand } from '../repeats';
import type { StreamReads } from '../execute-command';
import { assertKeptFields, type KeptField } from '../server-kept';
import { decisionContext, editionSourceOf, participantState, teamOfParticipant, teamState, type CommandServiceDependencies } from '../context';

/** An entry as answered to the client (spec §3 "Entry"), distance in km. */
export interface EntryView {
  id: number;
  team_id: number;
  participant_id: number;
  distance: number;
  entry_type: string;
  performed_at: string;
  created_at: string;
}

/** What POST /entry and PUT /entry/{id}/edit ask (spec §3 Entry; distance in km). */
export interface EntryInput {
  /** Default: the acting participant. */
  participantId?: number;
  /** km. */
  distance: number;
  entryType: string;
  /** YYYY-MM-DD. */
  performedAt: string;
  /**
   * What a client sending the whole §3 Entry (or an admin row) echoes of the fields the server
   * keeps; each is compared, never applied (server-kept.ts). On a new entry id and
   * created_at must be null (it has none yet).
   */
  echoed?: EchoedEntryFields;
}

/** What POST /team/{id}/activity-files/confirm adds besides an EntryInput: where the distance came from. */
export interface EntrySourceInput {
  /** Default manual. A file's entry is appended with ActivityFileUsed in its file's stream (file-entries.ts). */
  source?: EntrySource;
}

/** The server-kept fields of a §3 Entry (and of an admin row: participant.full_name, team.team_name). */
export interface EchoedEntryFields {
  id?: number | null;
  team_id?: number;
  /** ISO-8601. */
  created_at?: string | null;
  participantFullName?: string | null;
  teamName?: string | null;
}

/**
 * Logs a distance for a team member (spec §7 POST /entry). The entry's team is the member's.
 * @throws DomainError NOT_FOUND (no such member), FORBIDDEN, INVALID_* (spec §5), and the
 *   switch / deadline codes.
 */
export async function addEntry(
  deps: CommandServiceDependencies,
  input: EntryInput & EntrySourceInput & { entryId?: number },
  request: CommandRequest,
): Promise<{ entry: EntryView; position: number }> {
  const { store } = deps;
  const strava = input.source?.kind === 'strava' ? await stravaUse(deps, input.source.activityId) : null;
  const participantId = input.participantId ?? request.actor.participantId;
  if (participantId === null || participantId === undefined) throw new DomainError('NOT_FOUND', 'no participant given');
  // A file's entry is appended with its file's stream: entry/file-entries.ts (CommandService.addEntry sends it there).
  if (input.source?.kind === 'file') throw new Error('addEntry: an entry from a file is added by addFileEntries');
  const participantStream = streams.participant(participantId);
  const known = new Map<string, readonly RecordedEvent[]>();
  if (input.echoed) {
    // Only a client echoing the §3 Entry needs the team before the decision.
    const previous = await priorCommand(store, request.metadata);
    if (previous) return repeatedAdd(deps, previous);
    const participantEvents = await store.readStream(participantStream);
    const teamId = teamOfParticipant(foldStream(participantDecider, participantEvents));
    if (teamId === null) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
    await assertEchoedEntry(deps, input.echoed, { id: null, teamId, participantId, createdAt: null }, request);
    known.set(participantStream, participantEvents);
  }
  // A new id for a repeat too (it is then not used): the repeat check is part of the first read.
  const entryId = input.entryId ?? (await deps.ids.next('entry'));
  const entryStream = streams.entry(entryId);
  // TEAM_DAY_OUTLIER's figures: held warm in memory (no round trip once the day is held), else
  // asked of the read models.
  const teamDayAsked = deps.teamDays ? null : await teamDayOf(deps, participantId, input.performedAt, entryId);
  if (deps.teamDays) await deps.teamDays.warm(input.performedAt);
  // The repeat check, the participant, the (new) entry stream, the participant's other entries
  // (moderation) and the switches' tail in one round trip, then the append: two round trips. The
  // participant's stream and the other entries are part of the append as revision checks, so a
  // deletion of the participant cannot slip in between.
  const catalog = await editionSourceOf(deps).catalog();
  const others = entriesOf(deps, participantId, [input.performedAt], request);
  const outcome = await executeCommand(store, {
    streams: [entryStream, participantStream, ...(strava ? strava.streams : [])],
    ...(others ? { streamsOf: others } : {}),
    ...(known.size > 0 ? { known, prior: null } : {}),
    ...(deps.settings ? { settings: deps.settings } : {}),
    context: await decisionContext(deps, request),
    metadata: request.metadata,
    decide: (read, requestCtx) => {
      const participant = read.fold(participantStream, participantDecider);
      const participantTeamId = teamOfParticipant(participant);
      if (participantTeamId === null) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
      // The participant's edition decides (its dates and deadline), and only while it takes entries.
      const ctx = withEdition(requestCtx, editionForEntries(catalog, participant.edition, requestCtx));
      const teamDay = deps.teamDays && typeof input.performedAt === 'string' ? deps.teamDays.teamDay(participantTeamId, input.performedAt) : teamDayAsked;
      const added = {
        stream: entryStream,
        events: entryDecider.decide({
          type: 'AddEntry',
          data: {
            entryId, teamId: participantTeamId, participantId, participantTeamId, distance: input.distance, entryType: input.entryType, performedAt: input.performedAt,
            ...(input.source ? { source: input.source } : {}),
            sameDay: liveEntriesOf(read, read.found, participantId),
            ...(teamDay ? { teamDay } : {}),
          },
        }, read.fold(entryStream, entryDecider), ctx),
      };
      if (strava && input.source?.kind === 'strava') {
        const stravaState = read.fold(strava.stream, stravaActivityDecider);
        // As for a file: the entry that counts the activity must be live to refuse; one not read counts as live.
        const lastEntryLive = stravaState.entryId !== null
          && (strava.lastEntryStream !== streams.entry(stravaState.entryId) || read.fold(strava.lastEntryStream, entryDecider).status === 'active');
        return [added, {
          stream: strava.stream,
          events: stravaActivityDecider.decide({
            type: 'SyncStravaActivity',
            data: {
              activityId: input.source.activityId, entryId, teamId: participantTeamId, participantId,
              distance: input.distance, entryType: input.entryType, performedAt: input.performedAt, lastEntryLive,
            },
          }, stravaState, ctx),
        }];
      }
      return [added];
    },
  });
  if (outcome.repeated) return { entry: await entryView(deps, idOfStream(outcome.prior!.stream)), position: outcome.position };
  const event = outcome.events[0] as EntryAdded;
  deps.teamDays?.added(event.data.teamId, event.data.performedAt, toHundredths(event.data.distance));
  return { entry: viewOfAdded(event), position: outcome.position };
}

/**
 * The selector of the participant's entries of `days` for the moderation rules
 * (CommandSpec.streamsOf): entries added to or moved to the participant on one of those days (an
 * entry's participant and day are those of its last EntryAdded or EntryEdited, so every entry that
 * is the participant's on such a day now is found; one moved away since is found too and left
 * out by its fold). Found in the log itself in the command's own read (the event store's index of
 * `participantId`), so that a duplicate sent twice in a row is seen at once (a read model could
 * lag). The rules judge a day by its own entries only, so other days are not read. Their
 * revisions are checked at the append: two adds of the same participant whose reads saw the same
 * entries decide one after the other. None for ADMIN and SYSTEM (not moderated) or without a
 * stream index (unit wiring).
 */
export function entriesOf(deps: CommandServiceDependencies, participantId: number, days: readonly unknown[], request: CommandRequest): EventSelector | null {
  if (isPrivileged(request.actor) || !deps.streamIndex) return null;
  return {
    types: ['EntryAdded', 'EntryEdited'],
    data: [{ field: 'participantId', values: [participantId] }, { field: 'performedAt', values: [...new Set(days.map(String))] }],
  };
}

/**
 * The participant's team's day for TEAM_DAY_OUTLIER, from the read models
 * (CommandServiceDependencies.teamDayOf), without entry `entryId`; null when no look-up is wired,
 * the date is not a YYYY-MM-DD, or the look-up fails: the rule is a heuristic and never stops an
 * entry.
 */
export async function teamDayOf(deps: CommandServiceDependencies, participantId: number, performedAt: unknown, entryId: number): Promise<TeamDay | null> {
  if (!deps.teamDayOf || typeof performedAt !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(performedAt)) return null;
  try {
    return await deps.teamDayOf(participantId, performedAt, entryId);
  } catch {
    return null;
  }
}

/** The participant's live, not rejected entries among `entryStreams`, as the moderation rules see them. */
export function liveEntriesOf(read: StreamReads, entryStreams: readonly string[], participantId: number): ModeratedEntry[] {
  const live: ModeratedEntry[] = [];
  for (const stream of entryStreams) {
    const entry = read.fold(stream, entryDecider);
    if (entry.status !== 'active' || entry.participantId !== participantId || entry.review === 'rejected') continue;
    live.push({ entryId: entry.entryId!, distance: entry.distance!, entryType: entry.entryType!, performedAt: entry.performedAt! });
  }
  return live;
}

/**
 * The streams a Strava activity's entry reads besides its own, as a file's (file-entries.ts): the activity's stream
 * and the stream of the entry that counted it last.
 */
async function stravaUse(deps: CommandServiceDependencies, activityId: number): Promise<{ stream: string; lastEntryStream: string | null; streams: string[] }> {
  const stream = streams.stravaActivity(activityId);
  const { entryId } = foldStream(stravaActivityDecider, await deps.store.readStream(stream));
  const lastEntryStream = entryId === null ? null : streams.entry(entryId);
  return { stream, lastEntryStream, streams: lastEntryStream ? [stream, lastEntryStream] : [stream] };
}

/** Where a Strava activity stands: the entry that counts it, whether it lives, whether its member edited it since the sync. */
export interface StravaActivityStanding {
  /** The entry that counted the activity last, or null when none ever did. */
  entryId: number | null;
  /** That entry is live (not deleted). */
  live: boolean;
  /** Its km, type or day is no longer what the sync wrote: the member's now (decision 0095). */
  editedByMember: boolean;
  /** The entry's participant, or null. */
  participantId: number | null;
  /** The entry's values now (km, type, day), or null without an entry. */
  current: { distance: number; entryType: string; performedAt: string } | null;
}

/** The standing of a Strava activity (stream strava-activity-{id} and its last entry's stream). */
export async function stravaActivityStanding(deps: CommandServiceDependencies, activityId: number): Promise<StravaActivityStanding> {
  const state = foldStream(stravaActivityDecider, await deps.store.readStream(streams.stravaActivity(activityId)));
  if (state.entryId === null) return { entryId: null, live: false, editedByMember: false, participantId: null, current: null };
  const entry = foldStream(entryDecider, await deps.store.readStream(streams.entry(state.entryId)));
  const live = entry.status === 'active';
  const current = entry.distance !== null && entry.entryType !== null && entry.performedAt !== null
    ? { distance: entry.distance, entryType: entry.entryType, performedAt: entry.performedAt } : null;
  return { entryId: state.entryId, live, editedByMember: live && editedSinceSync(state, entry), participantId: entry.participantId, current };
}

/** The answer to a repeated add-entry (client retry, importer run again): as the first time. */
async function repeatedAdd(deps: CommandServiceDependencies, previous: RecordedEvent): Promise<{ entry: EntryView; position: number }> {
  return { entry: await entryView(deps, idOfStream(previous.stream)), position: await lastPositionOf(deps.store, previous) };
}

/**
 * Changes an entry (spec §7 PUT /entry/{id}/edit). A repeat answers the entry as it is now and
 * the position of the first run's event.
 * @throws DomainError NOT_FOUND (no such live entry), FORBIDDEN, INVALID_* (spec §5), the switch
 *   and deadline codes, IDEMPOTENCY_KEY_REUSED.
 */
export async function editEntry(
  deps: CommandServiceDependencies,
  entryId: number,
  input: EntryInput,
  request: CommandRequest,
  options: { stravaActivityId?: number } = {},
): Promise<{ entry: EntryView; position: number }> {
  const { store } = deps;
  const previous = await priorCommand(store, request.metadata);
  if (previous) return { entry: await entryView(deps, entryId), position: await lastPositionOf(store, previous) };
  const entryStream = streams.entry(entryId);
  const entryEvents = await store.readStream(entryStream);
  const current = foldStream(entryDecider, entryEvents);
  if (current.status !== 'active') throw new DomainError('NOT_FOUND', `entry ${entryId}`);
  if (input.echoed) await assertEchoedEntry(deps, input.echoed, { id: entryId, teamId: current.teamId!, participantId: current.participantId!, createdAt: current.createdAt }, request);
  const participantId = input.participantId ?? current.participantId!;
  const participantStream = streams.participant(participantId);
  // The edited entry's own km must be left out of its team's day: asked of the read models.
  const teamDay = await teamDayOf(deps, participantId, input.performedAt, entryId);
  // Strava's update of the entry it made: what it wrote is recorded in the activity's stream in the same append.
  const stravaStream = options.stravaActivityId === undefined ? null : streams.stravaActivity(options.stravaActivityId);
  const catalog = await editionSourceOf(deps).catalog();
  const others = entriesOf(deps, participantId, [input.performedAt], request);
  const outcome = await executeCommand(store, {
    streams: [entryStream, participantStream, ...(stravaStream ? [stravaStream] : [])],
    ...(others ? { streamsOf: others } : {}),
    known: new Map([[entryStream, entryEvents]]),
    prior: null,
    ...(deps.settings ? { settings: deps.settings } : {}),
    context: await decisionContext(deps, request),
    metadata: request.metadata,
    decide: (read, requestCtx) => {
      const participant = read.fold(participantStream, participantDecider);
      const participantTeamId = teamOfParticipant(participant);
      // As for an add: the participant's edition decides, and only while it takes entries.
      const ctx = participantTeamId === null ? requestCtx : withEdition(requestCtx, editionForEntries(catalog, participant.edition, requestCtx));
      const edited = {
        stream: entryStream,
        events: entryDecider.decide({
          type: 'EditEntry',
          data: {
            entryId, participantId, participantTeamId, distance: input.distance, entryType: input.entryType, performedAt: input.performedAt,
            sameDay: liveEntriesOf(read, read.found, participantId),
            ...(teamDay ? { teamDay } : {}),
          },
        }, read.fold(entryStream, entryDecider), ctx),
      };
      if (stravaStream === null || participantTeamId === null || edited.events.length === 0) return [edited];
      return [edited, {
        stream: stravaStream,
        events: stravaActivityDecider.decide({
          type: 'SyncStravaActivity',
          data: {
            activityId: options.stravaActivityId!, entryId, teamId: participantTeamId, participantId,
            distance: input.distance, entryType: input.entryType, performedAt: input.performedAt, lastEntryLive: true,
          },
        }, read.fold(stravaStream, stravaActivityDecider), ctx),
      }];
    },
  });
  // Nothing decided (the entry was already so): the entry's own position.
  const position = outcome.repeated || outcome.events.length > 0 ? outcome.position : outcome.read!.lastPosition(entryStream);
  return { entry: await entryView(deps, entryId), position };
}

/**
 * Deletes entries (spec §7 PUT /entry/delete): EntryDeleted for each, in ONE atomic append
 * across the entry streams, so a refused id leaves all of them in place. A repeat of the
 * command answers the same count and position and deletes nothing.
 * @throws DomainError NOT_FOUND (unknown or already deleted entry), FORBIDDEN,
 *   CONCURRENCY_CONFLICT, IDEMPOTENCY_KEY_REUSED.
 */
export async function deleteEntries(
  deps: CommandServiceDependencies,
  entryIds: readonly number[],
  request: CommandRequest,
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(entryIds)];
  const entryStreams = unique.map((entryId) => streams.entry(entryId));
  const [catalog, editionOfTeam] = await Promise.all([editionSourceOf(deps).catalog(), teamEditions(deps, entryStreams)]);
  const outcome = await executeCommand(deps.store, {
    streams: entryStreams,
    ...(deps.settings ? { settings: deps.settings } : {}),
    context: await decisionContext(deps, request),
    metadata: request.metadata,
    decide: (read, requestCtx) => unique.map((entryId, index) => {
      const entry = read.fold(entryStreams[index]!, entryDecider);
      // The entry's team's edition decides, and only while it takes entries (an unknown entry: NOT_FOUND below).
      const year = entry.teamId === null ? null : editionOfTeam.get(entry.teamId) ?? null;
      const ctx = entry.status === 'active' ? withEdition(requestCtx, editionForEntries(catalog, year, requestCtx)) : requestCtx;
      return { stream: entryStreams[index]!, events: entryDecider.decide({ type: 'DeleteEntry', data: { entryId } }, entry, ctx) };
    }),
  });
  return { count: unique.length, position: outcome.position };
}

/**
 * The edition of each team the entries of `entryStreams` belong to (team id → year). A team's
 * edition never changes, so it is read before the decision, not checked at the append.
 */
async function teamEditions(deps: CommandServiceDependencies, entryStreams: readonly string[]): Promise<Map<number, number>> {
  const entries = await Promise.all(entryStreams.map(async (stream) => foldStream(entryDecider, await deps.store.readStream(stream))));
  const teamIds = [...new Set(entries.map((entry) => entry.teamId).filter((id): id is number => id !== null))];
  const teams = await Promise.all(teamIds.map(async (teamId) => [teamId, foldStream(teamDecider, await deps.store.readStream(streams.team(teamId))).edition] as const));
  return new Map(teams.filter((pair): pair is readonly [number, number] => pair[1] !== null));
}

/**
 * Compares an entry's echoed fields with the entry as the server keeps it (server-kept.ts).
 * Only for a caller who may act on the entry's team (a member, an admin, the system): anyone
 * else goes on to the decider's FORBIDDEN, so a mismatch never tells a stranger what is stored.
 * @throws DomainError FIELD_MISMATCH naming the field.
 */
async function assertEchoedEntry(
  deps: CommandServiceDependencies,
  echoed: EchoedEntryFields,
  entry: { id: number | null; teamId: number; participantId: number; createdAt: string | null },
  request: CommandRequest,
): Promise<void> {
  if (!isPrivileged(request.actor) && request.actor.teamId !== entry.teamId) return;
  const fields: KeptField[] = [
    { field: 'id', sent: echoed.id, kept: entry.id },
    { field: 'team_id', sent: echoed.team_id, kept: entry.teamId },
    { field: 'created_at', sent: echoed.created_at, kept: entry.createdAt, compare: 'instant' },
  ];
  if (echoed.teamName !== undefined) fields.push({ field: 'team.team_name', sent: echoed.teamName, kept: (await teamState(deps.store, entry.teamId)).teamName });
  if (echoed.participantFullName !== undefined) {
    fields.push({ field: 'participant.full_name', sent: echoed.participantFullName, kept: (await participantState(deps.store, entry.participantId)).fullName });
  }
  assertKeptFields(fields);
}

/** The current view of an entry from its stream. @throws DomainError NOT_FOUND for an unknown entry. */
export async function entryView(deps: CommandServiceDependencies, entryId: number): Promise<EntryView> {
  const events: readonly RecordedEvent[] = await deps.store.readStream(streams.entry(entryId));
  const added = events.find((e) => e.type === 'EntryAdded');
  if (!added) throw new DomainError('NOT_FOUND', `entry ${entryId}`);
  let view = viewOfAdded({ type: 'EntryAdded', data: added.data as EntryAdded['data'] });
  for (const event of events) {
    if (event.type === 'EntryEdited') {
      const data = event.data as EntryEdited['data'];
      view = { ...view, participant_id: data.participantId, distance: data.distance, entry_type: data.entryType, performed_at: data.performedAt };
    }
  }
  return view;
}

export function viewOfAdded(event: EntryAdded): EntryView {
  return {
    id: event.data.entryId,
    team_id: event.data.teamId,
    participant_id: event.data.participantId,
    distance: event.data.distance,
    entry_type: event.data.entryType,
    performed_at: event.data.performedAt,
    created_at: event.data.createdAt,
  };
}

/**
 * An administrator's decision on flagged entries (POST /api/admin/review):
 * EntryReviewApproved or EntryReviewRejected with the same note for each, in ONE atomic append
 * across the entry streams, so one refused id leaves all of them undecided.
 * @throws DomainError FORBIDDEN (not an ADMIN), NOT_FOUND (unknown or deleted entry),
 *   ENTRY_NOT_UNDER_REVIEW (never flagged, or decided already), INVALID_REQUEST, VALUE_TOO_LONG,
 *   ENTRY_DEADLINE_PASSED (an entry of a closed edition: its results are final).
 */
export async function reviewEntries(
  deps: CommandServiceDependencies,
  input: { entryIds: readonly number[]; decision: 'approve' | 'reject'; note: string },
  request: CommandRequest,
): Promise<{ count: number; position: number }> {
  const unique = [...new Set(input.entryIds)];
  if (unique.length === 0) throw new DomainError('INVALID_REQUEST', 'no entry ids');
  const entryStreams = unique.map((entryId) => streams.entry(entryId));
  const [catalog, editionOfTeam] = await Promise.all([editionSourceOf(deps).catalog(), teamEditions(deps, entryStreams)]);
  const outcome = await executeCommand(deps.store, {
    streams: entryStreams,
    context: await decisionContext(deps, request),
    metadata: request.metadata,
    decide: (read, requestCtx) => unique.map((entryId, index) => {
      const entry = read.fold(entryStreams[index]!, entryDecider);
      // A closed edition's results are final: its entries are reviewed no more (ENTRY_DEADLINE_PASSED).
      const year = entry.teamId === null ? null : editionOfTeam.get(entry.teamId) ?? null;
      const ctx = entry.status === 'active' ? withEdition(requestCtx, editionForEntries(catalog, year, requestCtx)) : requestCtx;
      return { stream: entryStreams[index]!, events: entryDecider.decide({ type: 'ReviewEntry', data: { entryId, decision: input.decision, note: input.note } }, entry, ctx) };
    }),
  });
  return { count: unique.length, position: outcome.position };
}
