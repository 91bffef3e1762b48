/**
 * Strava sync (docs/decisions/0095): what each job of the `strava` queue does, and the account
 * page's commands (connect, mode, disconnect, confirm or dismiss a proposal).
 *
 * An activity becomes an entry through the ordinary command path (CommandService.addEntry, the
 * participant as actor: the entry window, the deadline, the distance rules and moderation apply as
 * to one typed in), its source `{ kind: 'strava', activityId }`, with StravaActivitySynced in the
 * activity's own stream in the same atomic append, so it counts once however often Strava tells
 * us. Each job's command id is derived from the event it handles (activity, aspect, event time):
 * a job run again after a crash appends nothing twice.
 *
 * - create/update: fetch GET /activities/{id}; km = distance / 1000 to 0.01, day = the date of
 *   start_date_local, type from sport_type (or the legacy `type`) by `mapType`. A day outside the
 *   participant's edition, or no distance: skipped (the connection's lastError and skipped count
 *   say so), not a failure. Mode auto adds the entry (or edits the one it made); mode confirm holds
 *   a proposal. An entry its member has edited by hand since is theirs: Strava no longer changes
 *   or deletes it.
 * - delete: deletes the entry the activity made (unless the member's), drops a proposal.
 * - athlete deauthorization, or a 401 on a token: the connection is marked deauthorized and its
 *   tokens and proposals dropped; no further job does anything for it.
 * - backfill: lists the athlete's activities from the edition's first day (00:00 in its zone) to
 *   now or the edition's last day's end, 100 a page, each activity its own job.
 *
 * Errors of Strava (StravaRateLimitedError, StravaHttpError) propagate: the worker waits for the
 * rate limit or retries with backoff.
 */
import { DomainError, isPerformedWithinEdition, stravaEntryFields, type ActingUser, type ErrorCode } from '@sinilill/domain';
import type { CommandService } from '../command-service';
import type { CommandRequest } from '../metadata';
import type { EntryView } from '../entry/handlers';
import { StravaHttpError, StravaUnauthorizedError, type StravaActivity, type StravaClient, type StravaTokenAnswer } from './client';
import type { StravaConnection, StravaConnections, StravaMode, StravaProposal } from './connections';

/** The OAuth scope asked for: public and followers-only activities (not private ones: decision 0095). */
export const STRAVA_SCOPE = 'activity:read';

/** Activities per backfill page (Strava's per_page maximum is 200; 100 keeps a page's answer small). */
export const BACKFILL_PAGE_SIZE = 100;

/** A job the sync asks to be queued (the queue's types live in @sinilill/messaging, which this package does not import). */
export type StravaFollowUp =
  | { kind: 'activity'; athleteId: number; activityId: number; aspect: 'create' | 'update' | 'delete'; eventTime: number }
  | { kind: 'backfill'; userId: string; page: number; connectedAt: number };

export interface StravaSyncOptions {
  commands: CommandService;
  connections: StravaConnections;
  client: StravaClient;
  /** Strava's sport_type (or legacy type) → a preset entry type, or null (mapActivityType of @sinilill/activity-files). */
  mapType: (sport: string | null | undefined) => string | null;
  /** Queues a follow-up job (backfill pages and their activities). */
  enqueue: (job: StravaFollowUp) => Promise<void>;
  /** Told of each outcome (metrics, logs). */
  onOutcome?: (outcome: StravaOutcome) => void;
}

/** What a job came to. */
export type StravaOutcome = 'added' | 'edited' | 'deleted' | 'proposed' | 'unchanged' | 'skipped' | 'kept' | 'ignored' | 'deauthorized' | 'listed';

const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CONCURRENCY_CONFLICT', 'SERVICE_UNAVAILABLE']);

const SKIP_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['INVALID_PERFORMED_AT', 'ENTRY_DEADLINE_PASSED', 'ENTRY_INSERTION_DISABLED', 'STRAVA_ACTIVITY_OUTSIDE_EDITION']);

/** Epoch ms of 00:00 of `ymd` in `timeZone`. */
export function startOfLocalDay(ymd: string, timeZone: string): number {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const offsetAt = (ms: number) => {
    const name = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) * 60_000 : 0;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

/** The sync's jobs and commands. */
export class StravaSync {
  constructor(private readonly options: StravaSyncOptions) {}

  private get commands(): CommandService {
    return this.options.commands;
  }

  private get connections(): StravaConnections {
    return this.options.connections;
  }

  /**
   * Stores the connection of a returning authorization (the callback): exchanges the code, saves
   * the tokens and queues the backfill.
   * @throws StravaHttpError when Strava refuses the code or does not answer.
   */
  async connect(input: { userId: string; participantId: number; mode: StravaMode; code: string; scope: string }): Promise<StravaConnection> {
    const tokens: StravaTokenAnswer = await this.options.client.exchangeCode(input.code);
    const athlete = tokens.athlete;
    if (!athlete || !Number.isSafeInteger(athlete.id)) throw new DomainError('STRAVA_UNAVAILABLE', 'the token answer names no athlete');
    const name = [athlete.firstname, athlete.lastname].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
    const at = this.commands.now();
    const connection = await this.connections.connect({
      userId: input.userId, participantId: input.participantId, athlete: { id: athlete.id, name }, mode: input.mode, scope: input.scope, tokens, at,
    });
    await this.options.enqueue({ kind: 'backfill', userId: input.userId, page: 1, connectedAt: Date.parse(connection.connectedAt) });
    return connection;
  }

  /**
   * The member disconnects: Strava is asked to revoke the grant (best effort: the tokens are
   * dropped here whatever it answers), the connection is marked disconnected.
   * @throws DomainError STRAVA_NOT_CONNECTED when there is no live connection.
   */
  async disconnect(userId: string): Promise<StravaConnection> {
    const connection = await this.connections.get(userId);
    if (!connection || connection.status !== 'connected') throw new DomainError('STRAVA_NOT_CONNECTED');
    const token = await this.connections.end(userId, 'disconnected', this.commands.now());
    if (token !== null) await this.options.client.deauthorize(token).catch(() => undefined);
    return (await this.connections.get(userId))!;
  }

  /**
   * Confirms a proposal as an entry of the member (`entryType` overrides the proposal's; required
   * when it has none), then drops it.
   * @throws DomainError NOT_FOUND (no such proposal), INVALID_ENTRY_TYPE, and addEntry's codes.
   */
  async confirm(userId: string, activityId: number, entryType: string | undefined, request: CommandRequest): Promise<{ entry: EntryView; position: number }> {
    const proposal = await this.connections.proposal(userId, activityId);
    if (!proposal) throw new DomainError('NOT_FOUND', `no Strava proposal ${activityId}`);
    const type = entryType ?? proposal.entryType;
    if (type === null) throw new DomainError('INVALID_ENTRY_TYPE', 'the activity has no sport: choose the type');
    const participantId = request.actor.participantId;
    if (participantId === null) throw new DomainError('FORBIDDEN', 'not a participant');
    const result = await this.commands.addEntry({
      participantId, distance: proposal.distance, entryType: type, performedAt: proposal.performedAt, source: { kind: 'strava', activityId },
    }, request);
    await this.connections.dropProposal(activityId, userId);
    return result;
  }

  /** Handles one activity event (webhook or backfill). */
  async activity(job: { athleteId: number; activityId: number; aspect: 'create' | 'update' | 'delete'; eventTime: number }): Promise<StravaOutcome> {
    const connection = await this.current(await this.connections.byAthlete(job.athleteId));
    if (!connection) return this.outcome('ignored');
    const request = await this.requestOf(connection, `strava:${job.activityId}:${job.aspect}:${job.eventTime}`);
    if (job.aspect === 'delete') return this.deleted(connection, job.activityId, request);
    let activity: StravaActivity;
    try {
      const fetched = await this.connections.withAccessToken(connection.userId, this.options.client, Date.now(), (token) => this.options.client.activity(token, job.activityId));
      if (fetched === null) return this.outcome('ignored');
      activity = fetched.value;
    } catch (error) {
      if (error instanceof StravaUnauthorizedError) return this.revoked(connection);
      // Gone, or made private (activity:read does not see it): as if deleted.
      if (error instanceof StravaHttpError && error.status === 404) return this.deleted(connection, job.activityId, request);
      throw error;
    }
    return this.apply(connection, activity, request);
  }

  /** One backfill page: each activity its own job, and the next page while this one was full. */
  async backfill(job: { userId: string; page: number; connectedAt: number }): Promise<StravaOutcome> {
    const connection = await this.current(await this.connections.get(job.userId));
    if (!connection || Date.parse(connection.connectedAt) !== job.connectedAt) return this.outcome('ignored');
    const edition = await this.editionOf(connection);
    if (!edition) return this.outcome('ignored');
    const after = Math.floor(startOfLocalDay(edition.startDate, edition.timeZone) / 1000);
    const lastDayEnd = Math.floor(startOfLocalDay(nextDay(edition.endDate), edition.timeZone) / 1000);
    const before = Math.min(Math.floor(this.commands.now().getTime() / 1000), lastDayEnd);
    if (before <= after) return this.outcome('listed');
    let list: StravaActivity[];
    try {
      const fetched = await this.connections.withAccessToken(connection.userId, this.options.client, Date.now(),
        (token) => this.options.client.athleteActivities(token, { after, before, page: job.page, perPage: BACKFILL_PAGE_SIZE }));
      if (fetched === null) return this.outcome('ignored');
      list = fetched.value;
    } catch (error) {
      if (error instanceof StravaUnauthorizedError) return this.revoked(connection);
      throw error;
    }
    for (const activity of list) {
      await this.options.enqueue({ kind: 'activity', athleteId: connection.athleteId, activityId: activity.id, aspect: 'create', eventTime: 0 });
    }
    if (list.length >= BACKFILL_PAGE_SIZE) await this.options.enqueue({ kind: 'backfill', userId: job.userId, connectedAt: job.connectedAt, page: job.page + 1 });
    await this.connections.recordSync(connection.userId, this.commands.now());
    return this.outcome('listed');
  }

  /**
   * A live connection as the sync uses it, following the account into the edition it joined last
   * (its participant then is a new one); null for none or one not connected.
   */
  private async current(connection: StravaConnection | null): Promise<StravaConnection | null> {
    if (!connection || connection.status !== 'connected') return null;
    const participantId = await this.commands.currentParticipantOf(connection.userId);
    if (participantId === null || participantId === connection.participantId) return connection;
    await this.connections.moveTo(connection.userId, participantId, this.commands.now());
    return { ...connection, participantId };
  }

  /** The athlete revoked our access on Strava's side. */
  async deauthorized(athleteId: number): Promise<StravaOutcome> {
    const connection = await this.connections.byAthlete(athleteId);
    if (!connection || connection.status !== 'connected') return this.outcome('ignored');
    return this.revoked(connection);
  }

  private async revoked(connection: StravaConnection): Promise<StravaOutcome> {
    await this.connections.end(connection.userId, 'deauthorized', this.commands.now());
    return this.outcome('deauthorized');
  }

  private async apply(connection: StravaConnection, activity: StravaActivity, request: CommandRequest): Promise<StravaOutcome> {
    const at = this.commands.now();
    const fields = stravaEntryFields(activity);
    if (fields === null) return this.skip(connection, 'STRAVA_ACTIVITY_WITHOUT_DISTANCE');
    const edition = await this.editionOf(connection);
    if (!edition || !isPerformedWithinEdition(fields.performedAt, edition)) return this.skip(connection, 'STRAVA_ACTIVITY_OUTSIDE_EDITION');
    const sportType = activity.sport_type ?? activity.type ?? '';
    const presetType = this.options.mapType(sportType);
    const standing = await this.commands.stravaActivity(activity.id);
    try {
      if (standing.live) {
        if (standing.editedByMember || standing.participantId !== connection.participantId) return this.done(connection, 'kept');
        // A type the member chose on confirming stays when Strava's sport maps to none.
        const wanted = { distance: fields.distance, entryType: presetType ?? standing.current?.entryType ?? 'OTHER', performedAt: fields.performedAt };
        const current = standing.current;
        if (current && Math.round(current.distance * 100) === Math.round(wanted.distance * 100) && current.entryType === wanted.entryType && current.performedAt === wanted.performedAt) {
          return this.done(connection, 'unchanged');
        }
        await this.commands.editEntry(standing.entryId!, wanted, request, { stravaActivityId: activity.id });
        return this.done(connection, 'edited');
      }
      if (connection.mode === 'confirm') {
        const proposal: StravaProposal = {
          activityId: activity.id, name: activity.name ?? '', sportType, entryType: presetType,
          distance: fields.distance, performedAt: fields.performedAt, startedAt: fields.startedAt,
        };
        await this.connections.propose(connection.userId, connection.participantId, proposal, at);
        return this.done(connection, 'proposed');
      }
      await this.commands.addEntry({
        participantId: connection.participantId, distance: fields.distance, entryType: presetType ?? 'OTHER', performedAt: fields.performedAt,
        source: { kind: 'strava', activityId: activity.id },
      }, request);
      return this.done(connection, 'added');
    } catch (error) {
      if (error instanceof DomainError && SKIP_CODES.has(error.code)) return this.skip(connection, 'STRAVA_ACTIVITY_OUTSIDE_EDITION');
      // Another job (the backfill and a webhook at once) made the entry first: nothing to add.
      if (error instanceof DomainError && error.code === 'ALREADY_EXISTS') return this.done(connection, 'unchanged');
      // Passing conditions: the job is retried.
      if (error instanceof DomainError && RETRIED_CODES.has(error.code)) throw error;
      if (error instanceof DomainError) return this.skip(connection, error.code);
      throw error;
    }
  }

  private async deleted(connection: StravaConnection, activityId: number, request: CommandRequest): Promise<StravaOutcome> {
    const dropped = await this.connections.dropProposal(activityId, connection.userId);
    const standing = await this.commands.stravaActivity(activityId);
    if (!standing.live || standing.participantId !== connection.participantId) return this.done(connection, dropped ? 'deleted' : 'unchanged');
    if (standing.editedByMember) return this.done(connection, 'kept');
    try {
      await this.commands.deleteEntries([standing.entryId!], request);
    } catch (error) {
      if (error instanceof DomainError && !RETRIED_CODES.has(error.code)) return this.skip(connection, error.code);
      throw error;
    }
    return this.done(connection, 'deleted');
  }

  private async editionOf(connection: StravaConnection) {
    const participant = await this.commands.participant(connection.participantId);
    if (!participant.exists || participant.edition === null) return null;
    return (await this.commands.editions()).get(participant.edition)?.edition ?? null;
  }

  /** The participant acting, as the entry commands want them (team resolved), with a command id of the event. */
  private async requestOf(connection: StravaConnection, commandId: string): Promise<CommandRequest> {
    const actor: ActingUser = await this.commands.resolveActor({ userId: connection.userId, role: 'USER', participantId: connection.participantId, teamId: null });
    return { actor, metadata: { commandId, correlationId: commandId, causationId: null } };
  }

  private async skip(connection: StravaConnection, code: ErrorCode): Promise<StravaOutcome> {
    await this.connections.recordSync(connection.userId, this.commands.now(), { error: code, skipped: true });
    return this.outcome('skipped');
  }

  private async done(connection: StravaConnection, outcome: StravaOutcome): Promise<StravaOutcome> {
    await this.connections.recordSync(connection.userId, this.commands.now());
    return this.outcome(outcome);
  }

  private outcome(outcome: StravaOutcome): StravaOutcome {
    this.options.onOutcome?.(outcome);
    return outcome;
  }
}

/** The day after `ymd` (YYYY-MM-DD). */
function nextDay(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
