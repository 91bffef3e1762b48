/**
 * Bulk import through the same deciders: the importer's commands (RegisterTeam,
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
 * - idempotency (docs/decisions/0007): a command whose first event is stored already in its stream is a repeat
 *   and appends nothing (a team's repeat still re-asserts its reservations, as registerTeam
 *   does); a second run of the same import appends nothing.
 *
 * How: every stream the import touches is read once (stored-streams.ts, one query per 5 000
 * streams), its state folded and kept in memory; each command is decided against that state; the
 * decided events are grouped per stream (a participant's registration and payment share one
 * request, since a stream may appear only once per append) and appended with `appendToStreams`,
 * `batchEvents` events per call, each stream expecting the revision it had in memory
 * ('no_stream' for a new one). While one batch is appended the next is read, decided and, where
 * the store can (EventStore.prepareAppend), encoded for the append (its revisions are the ones
 * its streams will have once the batch before commits; if that one fails, it is never sent).
 *
 * Refusals: the first command a decider (or a reservation) refuses stops the import with
 * BulkImportStopped "import stopped at <label>: <message>"; the commands before it in its batch
 * are appended first, and earlier batches stay imported (a re-run continues where it stopped).
 * The import is an operator's tool: a concurrent writer to one of its streams makes the batch's
 * append fail (WrongExpectedRevisionError, reported as a BulkImportStopped for the batch) rather
 * than being retried.
 *
 * Modules: bulk-types.ts (commands, options, results, BulkImportStopped), bulk-decide.ts (one
 * command decided on the in-memory states), stored-streams.ts (bulk reads), account-rows.ts (the
 * account-table reservations); this one cuts the commands into batches, loads their streams and
 * appends what was decided.
 */
import type pg from 'pg';
import { streams, type DomainError } from '@sinilill/domain';
import type { AppendRequest, EventStore, PreparedAppend } from '@sinilill/event-store';
import type { AccountDirectory } from '../account/directory';
import { reserveAccountRows } from './account-rows';
import { BulkDecider, slotOf, type Decided, type Overlay, type Slot } from './bulk-decide';
import {
  BulkImportStopped,
  accountUserId,
  type BulkCommand,
  type BulkImporterOptions,
  type BulkRunResult,
  type BulkTimings,
} from './bulk-types';
import { readStreams } from './stored-streams';

/** A batch read and decided, not yet appended. */
interface Prepared {
  decided: Decided[];
  /** The refusal that ended the batch early (the import stops after appending `decided`). */
  stop: BulkImportStopped | null;
  overlay: Overlay;
  /** `decided`'s append made ready while the batch before it committed (EventStore.prepareAppend), or null. */
  ahead: Ahead | null;
}

/** An append prepared ahead: its requests and the store's prepared send (rejects as prepareAppend). */
interface Ahead {
  requests: AppendRequest[];
  prepared: Promise<PreparedAppend>;
}

/** A batch being appended. */
interface InFlight {
  batch: Prepared;
  done: Promise<void>;
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
  private readonly correlationId: string;
  private readonly batchEvents: number;
  /** Every stream touched so far (read or written), with its state. */
  private readonly slots = new Map<string, Slot>();
  /** Decides each command on `slots` and a batch's overlay. */
  private readonly decider: BulkDecider;
  /** Time spent so far, over every run. */
  readonly timings: BulkTimings = { loadMs: 0, decideMs: 0, reserveMs: 0, appendMs: 0 };

  constructor(options: BulkImporterOptions) {
    this.store = options.store;
    if (options.directory && !options.pool) throw new TypeError('BulkImporter: a directory needs the pool of its tables');
    this.accounts = options.directory && options.pool ? { directory: options.directory, pool: options.pool } : null;
    this.correlationId = options.correlationId;
    this.batchEvents = options.batchEvents ?? 5000;
    if (!Number.isInteger(this.batchEvents) || this.batchEvents < 1) throw new TypeError('BulkImporter: batchEvents must be an integer >= 1');
    this.decider = new BulkDecider({
      slots: this.slots, accounts: this.accounts !== null, correlationId: this.correlationId,
      ...(options.edition ? { edition: options.edition } : {}),
    });
  }

  /**
   * Imports `commands` in order, in batches of about `batchEvents` events. Pipelined: while one
   * batch is being appended, the next is read, decided on top of it and encoded (PostgreSQL and
   * this process work at the same time); batches are still appended one after the other, in order.
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
        decided.push(this.decider.decide(order, command, overlay));
      } catch (error) {
        stop = new BulkImportStopped(command.label, error);
        break;
      }
    }
    // The append is encoded now, while the batch before is committing (PostgreSQL waited for
    // that encoding when it was done at the send). Each stream expects the revision it was
    // decided on, which is its committed one once the batch before has committed; if that batch
    // fails, this one is never sent.
    let ahead: Ahead | null = null;
    if (this.store.prepareAppend && decided.length > 0) {
      const requests = this.requestsOf(decided, 'decided');
      if (requests.length > 0) {
        const prepared = this.store.prepareAppend(requests);
        prepared.catch(() => undefined);
        ahead = { requests, prepared };
      }
    }
    this.timings.decideMs += performance.now() - started;
    return { decided, stop, overlay, ahead };
  }

  /**
   * Appends a prepared batch (after the one before it is committed): a refused reservation cuts
   * the batch before the refused command, which is appended and then reported.
   * @throws the batch's BulkImportStopped (a decider's or a reservation's refusal, a failed append).
   */
  private async append(batch: Prepared, result: BulkRunResult, onProgress?: (row: number) => void): Promise<void> {
    let { stop, ahead } = batch;
    let toAppend = batch.decided;
    for (;;) {
      const refused = await this.flush(toAppend, result, ahead);
      // A batch cut before a refused reservation is a different append: encoded again.
      ahead = null;
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
    const recorded = await readStreams(this.store, names);
    for (const name of names) this.slots.set(name, slotOf(name, recorded.get(name) ?? []));
  }

  /**
   * Appends `decided` (with its reservations, in one account-table transaction that commits after
   * the append) and makes its states the committed ones.
   * @returns null, or the earliest refused reservation (then nothing was written).
   * @throws BulkImportStopped when the append fails.
   */
  private async flush(decided: readonly Decided[], result: BulkRunResult, ahead: Ahead | null): Promise<{ order: number; error: DomainError } | null> {
    if (decided.length === 0) return null;
    const requests = ahead?.requests ?? this.requestsOf(decided, 'committed');
    const teams = decided.flatMap((d) => (d.team ? [d.team] : []));
    const emails = decided.flatMap((d) => (d.email ? [d.email] : []));
    let position = 0;
    const append = async () => {
      if (requests.length === 0) return;
      const started = performance.now();
      try {
        const results = ahead ? await (await ahead.prepared).append() : await this.store.appendToStreams(requests);
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

  /**
   * The decided events grouped per stream (in first-appearance order), each expecting its
   * revision: the `committed` one (the slots, once the batch before has committed), or the one its
   * first part was `decided` on (the same, provided the batch before commits).
   */
  private requestsOf(decided: readonly Decided[], revisions: 'committed' | 'decided'): AppendRequest[] {
    const byStream = new Map<string, AppendRequest>();
    for (const d of decided) {
      for (const part of d.parts) {
        const request = byStream.get(part.stream);
        if (request) {
          request.events.push(...part.events);
        } else {
          const revision = revisions === 'committed' ? this.slots.get(part.stream)!.revision : part.after.revision - part.events.length;
          byStream.set(part.stream, { stream: part.stream, events: [...part.events], expectedRevision: revision < 0 ? 'no_stream' : revision });
        }
      }
    }
    return [...byStream.values()];
  }
}
