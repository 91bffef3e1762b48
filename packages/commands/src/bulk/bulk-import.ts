/**
 * Bulk import through the same deciders (issue 15 item 6): the importer's commands (RegisterTeam,
 * RegisterParticipant with its account, MarkPayment, AddEntry) decided in memory and appended in
 * large multi-stream batches, instead of one read-decide-append round trip per command.
 *
 * What stays exactly as on the command-by-command path (CommandService.registerTeam,
 * registerParticipant + its account, markPayment, addEntry, run with the SYSTEM actor):
 *
 * - the pure deciders of @sinilill/domain (teamDecider, participantDecider — RegisterParticipant
 *   and the MarkPayment of payments.ts —, accountDecider, entryDecider) with the same
 *   DecisionContext: actor SYSTEM, `now` the command's instant, entry insertion on;
 * - the events: ids `eventIdFor(<commandId>, i)`, metadata `eventMetadataOf(context, {commandId,
 *   correlationId, causationId: null, imported: true})`, the account's command id
 *   `<commandId>:account` and user id `deterministicUuid('account:<commandId>:account')`, the
 *   schema versions of SCHEMA_VERSIONS;
 * - the account tables (with a directory): each team's name and join code and each account's
 *   e-mail reserved with the directory's semantics (account-rows.ts), in a transaction that
 *   commits only after the batch's events are appended;
 * - idempotency (D7): a command whose first event is stored already in its stream is a repeat
 *   and appends nothing (a team's repeat still re-asserts its reservations, as registerTeam
 *   does); a second run of the same import appends nothing.
 *
 * How: every stream the import touches is read once (stored-streams.ts, one query per 5 000
 * streams), its state folded and kept in memory; each command is decided against that state; the
 * decided events are grouped per stream (a participant's registration and payment share one
 * request, since a stream may appear only once per append) and appended with `appendToStreams`,
 * `batchEvents` events per call, each stream expecting the revision it had in memory
 * ('no_stream' for a new one). While one batch is appended the next is read and decided.
 *
 * Refusals: the first command a decider (or a reservation) refuses stops the import with
 * BulkImportStopped "import stopped at <label>: <message>"; the commands before it in its batch
 * are appended first, and earlier batches stay imported (a re-run continues where it stopped).
 * The import is an operator's tool: a concurrent writer to one of its streams makes the batch's
 * append fail (WrongExpectedRevisionError, reported as a BulkImportStopped for the batch) rather
 * than being retried.
 */
import type pg from 'pg';
import {
  DomainError,
  SCHEMA_VERSIONS,
  accountDecider,
  entryDecider,
  participantDecider,
  streams,
  teamDecider,
  type ActingUser,
  type Decider,
  type DecisionContext,
  type DomainEventType,
  type Gender,
  type ParticipantState,
} from '@sinilill/domain';
import type { AppendRequest, EventData, EventStore, RecordedEvent } from '@sinilill/event-store';
import type { AccountDirectory } from '../accounts/directory';
import { deterministicUuid, eventIdFor, eventMetadataOf } from '../handle';
import { reserveAccountRows, type EmailRowReservation, type TeamRowReservation } from './account-rows';
import { readStreams } from './stored-streams';

/** The system actor every bulk command runs as (the importer's, as on the command-by-command path). */
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** What every bulk command carries besides its data. */
interface BulkCommandBase {
  /** Names the input row in errors: "import stopped at <label>: …" (e.g. `team 12`). */
  label: string;
  /** The command id (D7), e.g. `import:2025:team:12`; the event ids derive from it. */
  commandId: string;
  /** The decision's instant, ISO-8601 (the row's original created_at). */
  at: string;
  /** Progress: how many input rows are done once this command is imported (1-based row number). */
  row?: number;
}

/** A team as registerTeam takes it (the importer's team row; the team id is the old one). */
export interface BulkRegisterTeam extends BulkCommandBase {
  type: 'RegisterTeam';
  data: { teamId: number; teamName: string; description: string; joinCode: string; icon: string | null };
}

/** A participant as registerParticipant takes it; with a directory also their account. */
export interface BulkRegisterParticipant extends BulkCommandBase {
  type: 'RegisterParticipant';
  data: {
    participantId: number; teamId: number; fullName: string; email: string; birthYear: number; gender: Gender;
    isCaptain: boolean; newsletter: boolean;
  };
}

/** A paid flag as markPayment (the system's: no source) sets it. */
export interface BulkMarkPayment extends BulkCommandBase {
  type: 'MarkPayment';
  data: { participantId: number; isPaid: boolean };
}

/** An entry as addEntry takes it; its team is the participant's (from the participant's stream). */
export interface BulkAddEntry extends BulkCommandBase {
  type: 'AddEntry';
  /** distance in km (at most two decimals), performedAt YYYY-MM-DD. */
  data: { entryId: number; participantId: number; distance: number; entryType: string; performedAt: string };
}

/** One command of a bulk import. */
export type BulkCommand = BulkRegisterTeam | BulkRegisterParticipant | BulkMarkPayment | BulkAddEntry;

/** The bulk import stopped at a command: the message names its label, `cause` is the refusal. */
export class BulkImportStopped extends Error {
  override readonly name = 'BulkImportStopped';
  constructor(readonly label: string, cause: unknown) {
    super(`import stopped at ${label}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export interface BulkImporterOptions {
  /** The event store the events are appended to (with personal-data protection, as the app's). */
  store: EventStore;
  /**
   * The account tables. With it, as CommandService with a directory: team names and join codes
   * are indexed and every participant gets an approved account without a password.
   */
  directory?: AccountDirectory;
  /**
   * The database of the store and of the account tables: the batch's reservations (required with
   * `directory`) and the fast bulk read of the touched streams (stored-streams.ts; without it the
   * store's own reads are used).
   */
  pool?: pg.Pool;
  /** The events' correlation id, e.g. `import:2025`. */
  correlationId: string;
  /** Events per append (default 5 000): one appendToStreams call, one account-table transaction. */
  batchEvents?: number;
}

/**
 * Where the time of a bulk import went, ms (wall clock, summed over batches). Reading and deciding
 * a batch overlap with appending the one before it, so the parts may add up to more than the
 * import's time.
 */
export interface BulkTimings {
  /** Reading and folding the touched streams. */
  loadMs: number;
  /** Deciding in memory and building the EventData. */
  decideMs: number;
  /** Account-table reservations (multi-row inserts and owner checks). */
  reserveMs: number;
  /** appendToStreams (encryption of personal fields included) and the account-table commit. */
  appendMs: number;
}

/** What one `run` did. */
export interface BulkRunResult {
  /** Commands handled (decided or found repeated). */
  commands: number;
  /** Commands found stored already (nothing appended for them). */
  repeated: number;
  /** Events appended. */
  events: number;
  /** appendToStreams calls. */
  batches: number;
  /** Highest global position of this run's commands (the stored one for a repeat); 0 when none. */
  position: number;
}

/** One stream's state as the import sees it. */
interface Slot {
  state: unknown;
  /** Revision of the stream's last event; -1 when the stream does not exist. */
  revision: number;
  /** The stream's events as stored when it was read (null when it had none): for the repeat check. */
  stored: readonly { id: string; commandId: string | undefined; position: number }[] | null;
}

/** One stream's part of a decided command. */
interface Part {
  stream: string;
  events: EventData[];
  /** The stream's slot after the part. */
  after: Slot;
}

/** A command decided (or found repeated) in a batch, not yet appended. */
interface Decided {
  order: number;
  command: BulkCommand;
  parts: Part[];
  /** Position of the stored command (repeat), else 0. */
  repeatPosition: number;
  repeated: boolean;
  team?: TeamRowReservation;
  email?: EmailRowReservation;
}

/**
 * The slots a batch changed (copy on write), over the batch still being appended (`below`, whose
 * slots are emptied once it is committed) and the committed slots.
 */
interface Overlay {
  slots: Map<string, Slot>;
  below: Overlay | null;
}

/** A batch read and decided, not yet appended. */
interface Prepared {
  decided: Decided[];
  /** The refusal that ended the batch early (the import stops after appending `decided`). */
  stop: BulkImportStopped | null;
  overlay: Overlay;
}

/** A batch being appended. */
interface InFlight {
  batch: Prepared;
  done: Promise<void>;
}

type AnyDecider = Decider<unknown, { type: DomainEventType; data: unknown }, unknown, DecisionContext>;

/** The decider whose state a stream holds, by the stream's name. */
function deciderOf(stream: string): AnyDecider {
  const kind = stream.slice(0, stream.indexOf('-'));
  const decider = kind === 'team' ? teamDecider
    : kind === 'participant' ? participantDecider
      : kind === 'entry' ? entryDecider
        : kind === 'user' ? accountDecider
          : null;
  if (!decider) throw new Error(`bulk import: no decider for stream ${stream}`);
  return decider as unknown as AnyDecider;
}

/**
 * Decides and appends importer commands in bulk (see the module's comment). One instance keeps
 * the state of every stream it touched across `run` calls (phases: teams, then participants,
 * then entries), so that an entry finds its participant's team without a read.
 * Not for concurrent use: run one `run` at a time.
 */
export class BulkImporter {
  private readonly store: EventStore;
  private readonly accounts: { directory: AccountDirectory; pool: pg.Pool } | null;
  private readonly pool: pg.Pool | undefined;
  private readonly correlationId: string;
  private readonly batchEvents: number;
  /** Every stream touched so far (read or written), with its state. */
  private readonly slots = new Map<string, Slot>();
  /** Time spent so far, over every run. */
  readonly timings: BulkTimings = { loadMs: 0, decideMs: 0, reserveMs: 0, appendMs: 0 };

  constructor(options: BulkImporterOptions) {
    this.store = options.store;
    if (options.directory && !options.pool) throw new TypeError('BulkImporter: a directory needs the pool of its tables');
    this.accounts = options.directory && options.pool ? { directory: options.directory, pool: options.pool } : null;
    this.pool = options.pool;
    this.correlationId = options.correlationId;
    this.batchEvents = options.batchEvents ?? 5000;
    if (!Number.isInteger(this.batchEvents) || this.batchEvents < 1) throw new TypeError('BulkImporter: batchEvents must be an integer >= 1');
  }

  /**
   * Imports `commands` in order, in batches of about `batchEvents` events. Pipelined: while one
   * batch is being appended, the next is read and decided on top of it (PostgreSQL and this
   * process work at the same time); batches are still appended one after the other, in order.
   * @param onProgress called after each appended batch with the `row` of its last command (or
   *   the number of commands handled so far when commands carry no row).
   * @returns counts and the highest position reached.
   * @throws BulkImportStopped at the first refused command (the commands before it are appended
   *   first; nothing after it is), or for a batch whose append failed (nothing of it and after
   *   it is appended); pg errors.
   */
  async run(commands: Iterable<BulkCommand>, onProgress?: (row: number) => void): Promise<BulkRunResult> {
    const result: BulkRunResult = { commands: 0, repeated: 0, events: 0, batches: 0, position: 0 };
    let inFlight: InFlight | null = null;
    try {
      for (const batch of this.batches(commands)) {
        const prepared = await this.prepare(batch, inFlight?.batch.overlay ?? null);
        if (inFlight) await inFlight.done;
        inFlight = this.send(prepared, result, onProgress);
        if (prepared.stop) await inFlight.done;
      }
      if (inFlight) await inFlight.done;
    } catch (error) {
      // Never leave an append running behind the caller's back.
      await inFlight?.done.catch(() => undefined);
      throw error;
    }
    return result;
  }

  /** `commands` cut into batches of about `batchEvents` events. */
  private *batches(commands: Iterable<BulkCommand>): Generator<BulkCommand[]> {
    const perParticipant = this.accounts ? 2 : 1;
    let batch: BulkCommand[] = [];
    let estimate = 0;
    for (const command of commands) {
      batch.push(command);
      estimate += command.type === 'RegisterParticipant' ? perParticipant : 1;
      if (estimate >= this.batchEvents) {
        yield batch;
        batch = [];
        estimate = 0;
      }
    }
    if (batch.length > 0) yield batch;
  }

  /** Starts appending a prepared batch; its failure is reported when `done` is awaited. */
  private send(batch: Prepared, result: BulkRunResult, onProgress?: (row: number) => void): InFlight {
    const done = this.append(batch, result, onProgress);
    done.catch(() => undefined);
    return { batch, done };
  }

  /**
   * Reads the batch's unknown streams and decides its commands on an overlay over `below` (the
   * batch still being appended, or null), up to the first refusal.
   */
  private async prepare(batch: readonly BulkCommand[], below: Overlay | null): Promise<Prepared> {
    let started = performance.now();
    await this.load(batch);
    this.timings.loadMs += performance.now() - started;
    started = performance.now();
    const overlay: Overlay = { slots: new Map(), below };
    const decided: Decided[] = [];
    let stop: BulkImportStopped | null = null;
    for (const [order, command] of batch.entries()) {
      try {
        decided.push(this.decide(order, command, overlay));
      } catch (error) {
        stop = new BulkImportStopped(command.label, error);
        break;
      }
    }
    this.timings.decideMs += performance.now() - started;
    return { decided, stop, overlay };
  }

  /**
   * Appends a prepared batch (after the one before it is committed): a refused reservation cuts
   * the batch before the refused command, which is appended and then reported.
   * @throws the batch's BulkImportStopped (a decider's or a reservation's refusal, a failed append).
   */
  private async append(batch: Prepared, result: BulkRunResult, onProgress?: (row: number) => void): Promise<void> {
    let { stop } = batch;
    let toAppend = batch.decided;
    for (;;) {
      const refused = await this.flush(toAppend, result);
      if (!refused) break;
      const index = toAppend.findIndex((d) => d.order === refused.order);
      stop = new BulkImportStopped(toAppend[index]!.command.label, refused.error);
      toAppend = toAppend.slice(0, index);
    }
    // Committed: the next batch's overlay no longer needs this one.
    batch.overlay.slots.clear();
    result.commands += toAppend.length;
    const last = toAppend.at(-1);
    if (last) onProgress?.(last.command.row ?? result.commands);
    if (stop) throw stop;
  }

  /** Reads every not yet known stream the batch's commands touch, in bulk, and folds it. */
  private async load(batch: readonly BulkCommand[]): Promise<void> {
    const wanted = new Set<string>();
    const want = (stream: string) => {
      if (!this.slots.has(stream)) wanted.add(stream);
    };
    for (const command of batch) {
      switch (command.type) {
        case 'RegisterTeam': want(streams.team(command.data.teamId)); break;
        case 'RegisterParticipant':
          want(streams.participant(command.data.participantId));
          if (this.accounts) want(streams.user(accountUserId(command.commandId)));
          break;
        case 'MarkPayment': want(streams.participant(command.data.participantId)); break;
        case 'AddEntry':
          want(streams.entry(command.data.entryId));
          want(streams.participant(command.data.participantId));
          break;
      }
    }
    if (wanted.size === 0) return;
    const names = [...wanted];
    const recorded = await readStreams(this.store, names, this.pool);
    for (const name of names) this.slots.set(name, slotOf(name, recorded.get(name) ?? []));
  }

  /** The stream's current slot for a batch: its overlay's, the batch's below it, else the committed one. */
  private slot(stream: string, overlay: Overlay): Slot {
    const slot = overlay.slots.get(stream) ?? overlay.below?.slots.get(stream) ?? this.slots.get(stream);
    if (!slot) throw new Error(`bulk import: stream ${stream} was not loaded`);
    return slot;
  }

  /**
   * Decides one command on `overlay` (the batch's states): the events of each stream, or a repeat.
   * @throws DomainError from a decider (the caller stops the import there).
   */
  private decide(order: number, command: BulkCommand, overlay: Overlay): Decided {
    const context: DecisionContext = { now: new Date(command.at).toISOString(), actor: SYSTEM, entryInsertionEnabled: true };
    const decided: Decided = { order, command, parts: [], repeatPosition: 0, repeated: false };
    switch (command.type) {
      case 'RegisterTeam': {
        const { data } = command;
        // Reservations are (re-)asserted for a repeat too, as registerTeam does.
        if (this.accounts) {
          decided.team = { order, teamId: data.teamId, teamName: data.teamName, joinCode: data.joinCode, createdAt: new Date(context.now) };
        }
        this.decideOn(decided, streams.team(data.teamId), command.commandId, { type: 'RegisterTeam', data }, context, overlay);
        break;
      }
      case 'RegisterParticipant': {
        const { data } = command;
        this.decideOn(decided, streams.participant(data.participantId), command.commandId, { type: 'RegisterParticipant', data }, context, overlay);
        if (this.accounts) {
          // registerParticipantAccount: approved (the system registers), no password, registration open to the system.
          const commandId = `${command.commandId}:account`;
          const userId = accountUserId(command.commandId);
          const account = {
            type: 'RegisterUser',
            data: {
              userId, participantId: data.participantId, email: data.email, fullName: data.fullName, role: 'USER',
              approved: true, hasPassword: false, lang: 'est', registrationEnabled: true,
            },
          };
          const repeat = this.decideOn(decided, streams.user(userId), commandId, account, context, overlay);
          if (!repeat) decided.email = { order, email: data.email, userId };
        }
        break;
      }
      case 'MarkPayment':
        this.decideOn(decided, streams.participant(command.data.participantId), command.commandId,
          { type: 'MarkPayment', data: { participantId: command.data.participantId, isPaid: command.data.isPaid } }, context, overlay);
        break;
      case 'AddEntry': {
        const { data } = command;
        const entryStream = streams.entry(data.entryId);
        if (this.repeatOf(entryStream, command.commandId, overlay, decided)) break;
        const participant = this.slot(streams.participant(data.participantId), overlay).state as ParticipantState;
        // A deleted participant has no team (CommandService.participantTeam).
        const participantTeamId = participant.exists && !participant.deleted ? participant.teamId : null;
        if (participantTeamId === null) throw new DomainError('NOT_FOUND', `participant ${data.participantId}`);
        this.decideOn(decided, entryStream, command.commandId, {
          type: 'AddEntry',
          data: {
            entryId: data.entryId, teamId: participantTeamId, participantId: data.participantId, participantTeamId,
            distance: data.distance, entryType: data.entryType, performedAt: data.performedAt,
          },
        }, context, overlay);
        break;
      }
    }
    return decided;
  }

  /**
   * True (and the stored position noted) when the command's first event is stored in `stream`
   * already: the repeat check every command makes first (priorCommand).
   */
  private repeatOf(stream: string, commandId: string, overlay: Overlay, decided: Decided): boolean {
    const { stored } = this.slot(stream, overlay);
    if (!stored) return false;
    const firstId = eventIdFor(commandId, 0);
    if (!stored.some((event) => event.id === firstId)) return false;
    decided.repeated = true;
    for (const event of stored) {
      if (event.commandId === commandId) decided.repeatPosition = Math.max(decided.repeatPosition, event.position);
    }
    return true;
  }

  /**
   * One stream's part of a command: the repeat check, then the stream's decider on its state; the
   * events (if any) become a Part with the state after them.
   * @returns true when the command was a repeat.
   * @throws DomainError from the decider.
   */
  private decideOn(
    decided: Decided,
    stream: string,
    commandId: string,
    command: { type: string; data: unknown },
    context: DecisionContext,
    overlay: Overlay,
  ): boolean {
    if (this.repeatOf(stream, commandId, overlay, decided)) return true;
    const slot = this.slot(stream, overlay);
    const decider = deciderOf(stream);
    const events = decider.decide(command, slot.state, context);
    if (events.length === 0) return false;
    let state = slot.state;
    for (const event of events) state = decider.evolve(state, event);
    const after: Slot = { state, revision: slot.revision + events.length, stored: slot.stored };
    overlay.slots.set(stream, after);
    const metadata = eventMetadataOf(context, { commandId, correlationId: this.correlationId, causationId: null, imported: true });
    decided.parts.push({
      stream,
      after,
      events: events.map((event, index) => ({
        id: eventIdFor(commandId, index),
        type: event.type,
        schemaVersion: SCHEMA_VERSIONS[event.type],
        data: event.data,
        metadata,
      })),
    });
    return false;
  }

  /**
   * Appends `decided` (with its reservations, in one account-table transaction that commits after
   * the append) and makes its states the committed ones.
   * @returns null, or the earliest refused reservation (then nothing was written).
   * @throws BulkImportStopped when the append fails.
   */
  private async flush(decided: readonly Decided[], result: BulkRunResult): Promise<{ order: number; error: DomainError } | null> {
    if (decided.length === 0) return null;
    const requests = this.requestsOf(decided);
    const teams = decided.flatMap((d) => (d.team ? [d.team] : []));
    const emails = decided.flatMap((d) => (d.email ? [d.email] : []));
    let position = 0;
    const append = async () => {
      if (requests.length === 0) return;
      const started = performance.now();
      try {
        const results = await this.store.appendToStreams(requests);
        for (const appended of results) position = Math.max(position, appended.position);
      } catch (error) {
        throw new BulkImportStopped(`the batch from ${decided[0]!.command.label} to ${decided.at(-1)!.command.label}`, error);
      } finally {
        this.timings.appendMs += performance.now() - started;
      }
      result.batches++;
    };
    if (this.accounts && (teams.length > 0 || emails.length > 0)) {
      const client = await this.accounts.pool.connect();
      try {
        await client.query('BEGIN');
        const started = performance.now();
        const refused = await reserveAccountRows(client, this.accounts.directory, { teams, emails });
        this.timings.reserveMs += performance.now() - started;
        if (refused) {
          await client.query('ROLLBACK');
          return refused;
        }
        await append();
        const committing = performance.now();
        await client.query('COMMIT');
        this.timings.appendMs += performance.now() - committing;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    } else {
      await append();
    }
    for (const d of decided) {
      for (const part of d.parts) this.slots.set(part.stream, part.after);
      if (d.repeated) result.repeated++;
      position = Math.max(position, d.repeatPosition);
      result.events += d.parts.reduce((sum, part) => sum + part.events.length, 0);
    }
    result.position = Math.max(result.position, position);
    return null;
  }

  /** The decided events grouped per stream (in first-appearance order), each expecting its committed revision. */
  private requestsOf(decided: readonly Decided[]): AppendRequest[] {
    const byStream = new Map<string, AppendRequest>();
    for (const d of decided) {
      for (const part of d.parts) {
        const request = byStream.get(part.stream);
        if (request) {
          request.events.push(...part.events);
        } else {
          const revision = this.slots.get(part.stream)!.revision;
          byStream.set(part.stream, { stream: part.stream, events: [...part.events], expectedRevision: revision < 0 ? 'no_stream' : revision });
        }
      }
    }
    return [...byStream.values()];
  }
}

/** The user id of the account registerParticipant gives a participant registered by `commandId`. */
export function accountUserId(commandId: string): string {
  return deterministicUuid(`account:${commandId}:account`);
}

/** A stream's slot from its recorded events. */
function slotOf(stream: string, events: readonly RecordedEvent[]): Slot {
  const decider = deciderOf(stream);
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, { type: event.type as DomainEventType, data: event.data });
  const last = events.at(-1);
  return {
    state,
    revision: last ? last.revision : -1,
    stored: events.length === 0 ? null : events.map((event) => ({ id: event.id, commandId: event.metadata.commandId, position: event.globalPosition })),
  };
}
