/**
 * The projector: catches the read models it works up from their checkpoints when woken, all of
 * them in one run, batch by batch, every batch one transaction for all of them (runner's
 * applyTogether: their advisory locks, one read of the log after the lowest checkpoint, each
 * projection's apply, every checkpoint and change notification, one commit; exactly once).
 * Batches grow with the backlog: FIRST_BATCH events at most at first, doubling while they come
 * back full, up to `batchSize`. A batch that fails as a whole is followed by each projection
 * alone (runner.catchUp), so one failing projection never holds the others back
 * (docs/decisions/0102).
 *
 * Sharing: N projector processes on one database share the projections. Each
 * process works only the projections whose lease it holds (./leases.ts: a session-level advisory
 * lock per projection on one dedicated connection per process, the live processes counted from
 * their member locks in pg_locks), aiming at a fair share ceil(P / live processes). At every tick
 * (each sweep interval, and once at start) a process holding more than its share releases the
 * excess (leasesToRelease: every other one, so the two heaviest projections part) — each after
 * the batch in progress, which commits or rolls back whole — and a process holding less claims
 * unheld projections. So a joining process gets its share within a tick or two, and a process
 * that dies frees its leases at once (its connection closes) for the survivors to claim at their
 * next tick: every projection has one holder again within a sweep interval. Two holders for a moment (a process that has not noticed its lease connection
 * broke) is harmless: every batch still takes the runner's lock. Without `databaseUrl` a
 * projector holds every projection itself and takes no lease (one process: tests, benchmarks).
 *
 * Wake-ups: a process consumes only the queues of the projections it holds: claiming a lease
 * starts that projection's BullMQ worker, releasing closes it and waits for the batch in progress
 * (the next batch leaves the projection out). A wake-up sent while a projection has no holder
 * waits in its queue for the next holder's worker; and a holder catches a projection up as soon
 * as it claims it, so a wake-up a closing worker took without running (the projection was being
 * released) is covered by the new holder's catch-up, which starts after it. (One a process took
 * in the instant after its lease connection broke, before its worker closed, may find the new
 * holder already caught up: that holder's sweep covers it, one interval later at most.) A job
 * only requests a run and completes: within a process one run goes at a time, for every
 * projection it works (a request during a run gets one more run after it, shared with every
 * request meanwhile, from any queue).
 *
 * The sweep (each SWEEP_INTERVAL_MS, after the tick) catches every projection this process holds
 * up directly, whatever became of the wake-ups (Redis restarted or flushed, a publisher that
 * failed after its append, a wake-up held back behind the job of a killed projector): an update
 * can be late by one sweep interval (two when its projection changed hands), never lost or
 * stalled. At start the projector forgets the pending wake-ups a killed predecessor
 * may have left (WakeUpPublisher.forgetPendingWakeUps), and its workers' job locks are short
 * (10 s), so a dead worker's job is reclaimed within seconds.
 *
 * An event a projection cannot apply because of its data is parked by the runner and the
 * projection goes on; each park is logged at warn (reportPark).
 *
 * Stopping (close(), or the `signal` option aborted): a run stops after the batch in progress,
 * whose apply and checkpoint commit together (or roll back together), so a stop never leaves a
 * half-applied batch; the events after it wait for the next holder, which catches up first.
 *
 * Traces and correlation: a run asked for by wake-up jobs carries their origins
 * (WakeUpOrigin: correlation id, trace context; a run shared by several jobs, those of all, at most
 * MAX_WAKE_UP_ORIGINS). Each projection's part of its batches runs under a span `projection batch <name>` (a
 * consumer span; attributes: projection, from and to position, events read and applied), a child
 * of the first origin's trace — so the trace of `POST /api/entry` goes on into the batch that
 * applied its event — and linked to the others'. Runs of the sweep and of the start-up are not
 * traced: the sweep runs every few seconds per projection and nearly always finds nothing. The
 * 'projected' log line of a run names its origins' correlation ids (`correlationIds`) and the
 * trace (`traceId`); the ids come with the jobs, since the batches read events without their
 * metadata (OMITTED_METADATA) for speed. With tracing off the spans are no-ops.
 */
import { Worker } from 'bullmq';
import type { Kysely } from 'kysely';
import type { EventStore, SubscribeOptions, Subscription } from '@sinilill/event-store';
import {
  MAX_WAKE_UP_ORIGINS,
  WakeUpPublisher,
  projectionQueueName,
  redisConnection,
  type WakeUpJob,
  type WakeUpOrigin,
} from '@sinilill/messaging';
import {
  applyTogether, catchUp, readCheckpoint, type BatchResult, type ParkReport, type Projection, type ReadModelDatabase, type TogetherResult,
} from '@sinilill/read-models';
import { asTraceCarrier, contextFromCarrier, inSpan, linkFromCarrier, type Context, type Link } from '@sinilill/telemetry';
import { LeaseSession, fairShare, leasesToRelease, readLeaseHolders } from './leases';

export interface ProjectorOptions {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  projections: readonly Projection[];
  redisUrl: string;
  /** BullMQ key prefix (default 'sinilill'). */
  prefix?: string;
  /** How often the leases are balanced and the held projections swept, ms. */
  sweepIntervalMs: number;
  /** Most events per batch (default 2000); a run starts at FIRST_BATCH and doubles up to it. */
  batchSize?: number;
  /**
   * The URL of `db`'s database, for this process's lease connection: with it,
   * projector processes on the same database share the projections (module docs). Without it,
   * this projector works every projection itself and takes no lease.
   */
  databaseUrl?: string;
  log?: (message: string, details?: Record<string, unknown>) => void;
  /**
   * Warnings: an event parked, with projection, position, event type and error —
   * never the event's data, which may be personal — and a lost lease connection. Default: `log`
   * with `level: 'warn'` among the details (the projector's JSON log lets the details name the
   * level).
   */
  warn?: (message: string, details: Record<string, unknown>) => void;
  /** Told after each batch this process committed (for measurements; must not throw). */
  onBatch?: (batch: ProjectorBatch) => void;
  /**
   * The engine's live feed of the log (EventStore.subscribe of the unwrapped store: KurrentDB's
   * catch-up subscription). With it, each committed event of a handled type
   * wakes the projections this process works, in addition to the writers' BullMQ wake-ups and
   * the sweep; a failed subscription is opened again from the last position it told, 1 s later.
   */
  subscribe?: (options: SubscribeOptions) => Subscription;
  /**
   * Aborted when the process shuts down: from then on every run stops after its current batch,
   * the start-up catch-up included (so a signal during start does not wait for a whole backlog).
   */
  signal?: AbortSignal;
}

/** One committed batch (ProjectorOptions.onBatch). */
export interface ProjectorBatch {
  projection: string;
  /** Events read and applied (of the types the projection handles) by the batch. */
  read: number;
  applied: number;
  /** The checkpoint after it (a global position). */
  position: number;
  /** When its transaction began and when it committed, ms since the epoch (sub-ms precision). */
  startedAt: number;
  endedAt: number;
}

export interface RunningProjector {
  /** Catches every projection this process holds up now, in this process (also the sweep's work). */
  catchUpAll(): Promise<void>;
  /** The projections this process works now (all of them without `databaseUrl`). */
  held(): string[];
  /**
   * Who holds each projection, from pg_locks: name → backend pid of the holder's lease
   * connection, null when unheld (all null without `databaseUrl`: no leases are taken).
   */
  leaseHolders(): Promise<Record<string, number | null>>;
  /**
   * Stops: no new wake-up is taken, the runs in progress end after their current batch (BullMQ's
   * worker.close() waits for the active job), and the leases are given back (so other processes
   * claim them at their next tick), then the Redis connections close. The caller closes the
   * database afterwards.
   */
  close(): Promise<void>;
}

/**
 * Events the first batch of a run reads at most (then doubling while batches come back full, up
 * to ProjectorOptions.batchSize): a wake-up under a steady load finds a few events, and a batch
 * sized for a backlog would make the first of them wait for the last (docs/decisions/0102).
 */
export const FIRST_BATCH = 250;

/**
 * How soon a run that found a projection's lock held elsewhere (runner.applyTogether's `busy`)
 * is followed by another, ms: the other holder (a projector letting go of a lease, a rebuild)
 * usually ends within a batch, and the sweep is seconds away.
 */
const BUSY_RETRY_MS = 250;

/** Minimum time between two wake-ups from the feed, ms: a burst of events makes one run, not one per event. */
const FEED_WAKE_MS = 10;

/**
 * The projector's side of EventStore.subscribe: one subscription to the
 * projections' event types, from `start(after)`; every told event schedules `wake` (at most once
 * per FEED_WAKE_MS), and a failed subscription is opened again from the last position told, after
 * a second. `close()` ends it for good.
 */
export function followFeed(
  subscribe: (options: SubscribeOptions) => Subscription,
  projections: readonly Projection[],
  wake: () => void,
  log: (message: string, details?: Record<string, unknown>) => void,
  retryMs = 1000,
): { start(after: number): void; close(): Promise<void> } {
  const types = [...new Set(projections.flatMap((projection) => projection.handles))];
  let last = 0;
  let current: Subscription | null = null;
  let closed = false;
  let pending: NodeJS.Timeout | null = null;
  let retry: NodeJS.Timeout | null = null;
  const open = () => {
    if (closed) return;
    current = subscribe({
      after: last,
      types,
      onEvent: (position) => {
        last = Math.max(last, position);
        if (pending) return;
        pending = setTimeout(() => { pending = null; wake(); }, FEED_WAKE_MS);
      },
      onError: (error) => {
        log('log subscription failed; subscribing again', { error: String(error), after: last });
        current = null;
        if (!closed) retry = setTimeout(open, retryMs);
      },
    });
  };
  return {
    start(after: number) {
      last = after;
      open();
    },
    async close() {
      closed = true;
      if (pending) clearTimeout(pending);
      if (retry) clearTimeout(retry);
      await current?.close();
    },
  };
}

/**
 * Logs what happened to a park: a newly parked event, or one a retry could not apply,
 * at warn; a retry that applied it or a skip at info. Projection, position, event id and type,
 * the error's code and message (values cut out, parking.ts) — never the event's data.
 */
export function reportPark(
  park: ParkReport,
  info: (message: string, details?: Record<string, unknown>) => void,
  warn: (message: string, details: Record<string, unknown>) => void,
): void {
  const details = {
    projection: park.projection, position: park.position, eventId: park.eventId, eventType: park.eventType,
    errorCode: park.errorCode, error: park.error,
  };
  if (park.outcome === 'parked') warn('event parked', details);
  else if (park.outcome === 'still-parked') warn('parked event failed again on retry', details);
  else if (park.outcome === 'retried') info('parked event applied on retry', details);
  else info('parked event skipped', details);
}

/**
 * The origins a wake-up job names (WakeUpJob: its own, then the coalesced ones), checked, since
 * the job comes from Redis: a correlation id is a string (cut to 100 characters), a trace context
 * a valid carrier; a job of an older sender names one empty origin.
 */
export function originsOf(job: Partial<WakeUpJob> | undefined): WakeUpOrigin[] {
  const coalesced: unknown[] = Array.isArray(job?.coalesced) ? job.coalesced : [];
  return [job, ...coalesced].slice(0, MAX_WAKE_UP_ORIGINS).map((origin) => {
    const { correlationId, trace } = (typeof origin === 'object' && origin !== null ? origin : {}) as Record<string, unknown>;
    const carrier = asTraceCarrier(trace);
    return {
      ...(typeof correlationId === 'string' && correlationId !== '' ? { correlationId: correlationId.slice(0, 100) } : {}),
      ...(carrier === undefined ? {} : { trace: carrier }),
    };
  });
}

/**
 * Runs `run` one at a time: a request while it runs gets one more run after it, shared by every
 * request made meanwhile (so a wake-up that arrives during a run is never answered by a run that
 * may have read before its event), and given the origins of all of them (at most
 * MAX_WAKE_UP_ORIGINS). `settled()` resolves when no run is in progress or queued.
 */
function oneAtATime(run: (origins: WakeUpOrigin[]) => Promise<void>): {
  request(origins?: readonly WakeUpOrigin[]): Promise<void>; settled(): Promise<void>;
} {
  let current: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  let nextOrigins: WakeUpOrigin[] = [];
  const start = (origins: WakeUpOrigin[]): Promise<void> => {
    const running: Promise<void> = run(origins).finally(() => { if (current === running) current = null; });
    current = running;
    return running;
  };
  return {
    request(origins = []) {
      if (next) {
        nextOrigins.push(...origins.slice(0, MAX_WAKE_UP_ORIGINS - nextOrigins.length));
        return next;
      }
      if (current) {
        nextOrigins = origins.slice(0, MAX_WAKE_UP_ORIGINS);
        next = current.catch(() => undefined).then(() => {
          next = null;
          const waiting = nextOrigins;
          nextOrigins = [];
          return start(waiting);
        });
        return next;
      }
      return start(origins.slice(0, MAX_WAKE_UP_ORIGINS));
    },
    settled() {
      return (next ?? current ?? Promise.resolve()).catch(() => undefined);
    },
  };
}

/**
 * Starts the projector (module docs): claims this process's share of the leases (all of them
 * without `databaseUrl`), starts their workers and the tick, and resolves once the projections
 * it holds have caught up (or the signal stopped them).
 * @throws the lease connection's error when the database cannot be reached at start, or what a
 *   start-up run threw (everything started is closed first).
 */
export async function startProjector(options: ProjectorOptions): Promise<RunningProjector> {
  const log = options.log ?? (() => undefined);
  const prefix = options.prefix ?? 'sinilill';
  const batchSize = options.batchSize ?? 2000;
  const names = options.projections.map((p) => p.name);
  let stopping = false;
  const stopped = () => stopping || (options.signal?.aborted ?? false);
  const warn = options.warn ?? ((message: string, details: Record<string, unknown>) => log(message, { ...details, level: 'warn' }));
  const onPark = (park: ParkReport) => reportPark(park, log, warn);
  const now = () => performance.timeOrigin + performance.now();

  /** The projections this process works: held, and not being released. */
  const working = new Set<string>();
  const workers = new Map<string, Worker<WakeUpJob>>();

  /** The first batch of a run, events: small, so that a run woken for a few events commits them at once. */
  const firstBatch = Math.min(FIRST_BATCH, batchSize);

  /**
   * One projection's part of a batch under its span (module docs), a child of `parent`; `from` is
   * its checkpoint before the batch.
   */
  const traced = (parent: Context, links: Link[], onTrace: (traceId: string) => void) =>
    (projection: Projection, from: number, work: () => Promise<BatchResult>): Promise<BatchResult> =>
      inSpan(`projection batch ${projection.name}`, { parent, links, role: 'consumer', attributes: { 'sinilill.projection': projection.name } }, async (span) => {
        if (span.isRecording()) onTrace(span.spanContext().traceId);
        const batch = await work();
        span.setAttributes({
          'sinilill.position.from': from, 'sinilill.position.to': batch.position,
          'sinilill.events.read': batch.read, 'sinilill.events.applied': batch.applied,
        });
        return batch;
      });

  /** The batch in progress, if any: a projection being released waits for it (stopWorking). */
  let inBatch: Promise<unknown> = Promise.resolve();

  /**
   * Catches one projection up alone, batch by batch (catchUp), as long as it is worked: the
   * fallback when a batch together failed (docs/decisions/0102).
   */
  const runAlone = async (projection: Projection): Promise<number> => {
    let applied = 0;
    while (working.has(projection.name) && !stopped()) {
      const startedAt = now();
      const batch = await catchUp(options.db, options.store, projection, { batchSize, stopAfter: 0, onPark });
      if (batch.read > 0) {
        options.onBatch?.({ projection: projection.name, read: batch.read, applied: batch.applied, position: batch.position, startedAt, endedAt: now() });
      }
      applied += batch.applied;
      if (batch.read < batchSize) break;
    }
    return applied;
  };

  // Every projection this process works, in one run: batch by batch, all of them in one
  // transaction (applyTogether), so that a stop or a release is seen between batches. The
  // batches grow with the backlog: the first reads at most firstBatch events, and each batch
  // that came back full doubles the next, up to batchSize; a batch shorter than its size read up
  // to the head: an event committed after its read has a wake-up of its own, which a run after
  // this one answers (oneAtATime), so the run ends there instead of reading once more to find
  // nothing. A batch that fails as a whole (not a parked event: a lost connection, a bug) is
  // followed by each projection alone, so the others go on while the failing one is retried by
  // the next wake-up or sweep.
  const run = async (origins: readonly WakeUpOrigin[]) => {
    const totals = new Map<string, { applied: number; position: number }>();
    // Traced when wake-ups asked for it (module docs): the first origin's trace goes on.
    const parent = contextFromCarrier(origins[0]?.trace);
    const links = origins.slice(1).map((origin) => linkFromCarrier(origin.trace)).filter((link) => link !== undefined);
    let traceId: string | undefined;
    const around = origins.length > 0 ? traced(parent, links, (id) => { traceId ??= id; }) : undefined;
    let size = firstBatch;
    let failure: unknown = null;
    // Projections whose lock another transaction held: left out for the rest of this run.
    const busy = new Set<string>();
    for (;;) {
      const held = options.projections.filter((projection) => working.has(projection.name) && !busy.has(projection.name));
      if (held.length === 0 || stopped()) break;
      const startedAt = now();
      const attempt = applyTogether(options.db, options.store, held, { maxCount: size, ...(around ? { around } : {}) });
      inBatch = attempt.catch(() => undefined);
      let batch: TogetherResult;
      try {
        batch = await attempt;
      } catch (error) {
        log('batch of every projection failed; each projection alone', { projections: held.map((p) => p.name), error: String(error) });
        const alone = await Promise.allSettled(held.map(async (projection) => {
          const applied = await runAlone(projection);
          const total = totals.get(projection.name) ?? { applied: 0, position: 0 };
          totals.set(projection.name, { applied: total.applied + applied, position: await readCheckpoint(options.db, projection.name) });
        }));
        for (const [i, outcome] of alone.entries()) {
          if (outcome.status === 'fulfilled') continue;
          log('projection run failed', { projection: held[i]!.name, error: String(outcome.reason) });
          failure ??= outcome.reason;
        }
        break;
      }
      for (const name of batch.busy) busy.add(name);
      const endedAt = now();
      for (const { projection, result } of batch.batches) {
        for (const park of result.parks) onPark(park);
        options.onBatch?.({ projection: projection.name, read: result.read, applied: result.applied, position: result.position, startedAt, endedAt });
        const total = totals.get(projection.name) ?? { applied: 0, position: 0 };
        totals.set(projection.name, { applied: total.applied + result.applied, position: result.position });
      }
      if (batch.read < size && batch.busy.length === 0) break;
      if (batch.read >= size) size = Math.min(size * 2, batchSize);
    }
    if (busy.size > 0 && !stopped()) {
      clearTimeout(busyRetry);
      busyRetry = setTimeout(() => void request().catch(() => undefined), BUSY_RETRY_MS);
      busyRetry.unref?.();
    }
    const correlationIds = [...new Set(origins.flatMap((origin) => (origin.correlationId === undefined ? [] : [origin.correlationId])))];
    for (const [projection, total] of totals) {
      if (total.applied === 0) continue;
      log('projected', {
        projection, applied: total.applied, position: total.position,
        ...(correlationIds.length > 0 ? { correlationIds } : {}), ...(traceId === undefined ? {} : { traceId }),
      });
    }
    if (failure !== null) throw failure;
  };
  let busyRetry: ReturnType<typeof setTimeout> | undefined;
  const runs = oneAtATime(run);
  const request = (origins: readonly WakeUpOrigin[] = []): Promise<void> => runs.request(origins);

  const startWorking = (name: string) => {
    working.add(name);
    const worker = new Worker<WakeUpJob>(
      projectionQueueName(name),
      // The job only asks for a run of every projection this process works and completes: the
      // run is shared by the wake-ups of all their queues (oneAtATime), and a worker being closed
      // never waits for other projections' runs. A projection being released is left out of the
      // run's next batch; its next holder catches up when it claims it, after this job was taken
      // (module docs). The run is traced as the job's origins ask (module docs) and logs its own
      // failures.
      async (job) => { void request(originsOf(job.data)).catch(() => undefined); },
      // A dead worker's job is reclaimed after its lock lapses (renewed every 5 s while alive).
      { connection: redisConnection(options.redisUrl), prefix, concurrency: 1, autorun: true, lockDuration: 10_000, stalledInterval: 5_000 },
    );
    worker.on('error', (error) => log('worker error', { projection: name, error: String(error) }));
    workers.set(name, worker);
  };
  /** Stops working `name`: its worker closed, the batch in progress ended (the next leaves it out). */
  const stopWorking = async (name: string) => {
    working.delete(name);
    const worker = workers.get(name);
    workers.delete(name);
    await worker?.close();
    await inBatch;
  };

  const leases = options.databaseUrl === undefined ? null : new LeaseSession({
    databaseUrl: options.databaseUrl,
    onLost: (lost, error) => {
      // The leases are gone: stop at once (runs end after their batch, workers close); the next
      // tick opens a new session.
      for (const name of lost) {
        void stopWorking(name).catch((closeError: unknown) => log('worker not closed', { projection: name, error: String(closeError) }));
      }
      warn('lease connection lost; its projections go to whoever claims them', { lost, error: String(error) });
    },
  });

  /** Balances this process's leases (module docs); one at a time. */
  const tick = async () => {
    if (!leases) return;
    if (!leases.isOpen) {
      // A lost session: make sure what it left running has stopped before taking new leases.
      await Promise.all([...new Set([...workers.keys(), ...working])].map(stopWorking));
      await leases.open();
    }
    const members = await leases.members();
    const share = fairShare(names.length, members);
    const released: string[] = [];
    const taken: string[] = [];
    for (const name of leasesToRelease(leases.held(), share)) {
      await stopWorking(name);
      await leases.release(name);
      released.push(name);
    }
    for (const name of names) {
      if (leases.held().length >= share) break;
      if (leases.held().includes(name)) continue;
      if (await leases.tryClaim(name)) {
        startWorking(name);
        taken.push(name);
      }
    }
    if (released.length > 0 || taken.length > 0) {
      log('leases changed', { held: leases.held(), taken, released, members, share, pid: leases.pid });
    }
  };

  const catchUpAll = async () => {
    await request();
  };
  let ticking: Promise<void> | null = null;
  const sweep = () => {
    if (ticking || stopped()) return;
    ticking = tick()
      .catch((error: unknown) => log('lease tick failed', { error: String(error) }))
      .then(() => {
        if (working.size > 0) void request().catch((error: unknown) => log('sweep failed', { error: String(error) }));
      })
      .finally(() => { ticking = null; });
  };
  let timer: NodeJS.Timeout | undefined;
  const publisher = new WakeUpPublisher({ redisUrl: options.redisUrl, prefix, projections: names });
  const feed = options.subscribe ? followFeed(options.subscribe, options.projections, () => {
    if (working.size > 0) void request().catch((error: unknown) => log('subscription wake-up failed', { error: String(error) }));
  }, log) : null;
  const close = async () => {
    stopping = true;
    clearInterval(timer);
    clearTimeout(busyRetry);
    await feed?.close();
    await ticking;
    await Promise.all([...new Set([...workers.keys(), ...working])].map(stopWorking));
    await runs.settled();
    await leases?.close();
    await publisher.close();
  };

  try {
    await publisher.forgetPendingWakeUps().catch((error: unknown) => log('pending wake-ups not cleared', { error: String(error) }));
    if (leases) await tick();
    else names.forEach(startWorking);
    timer = setInterval(sweep, options.sweepIntervalMs);
    timer.unref();
    // From the head before the catch-up: whatever is committed from then on wakes the runs.
    if (feed) feed.start(await options.store.headPosition());
    await catchUpAll();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    catchUpAll,
    held: () => [...working],
    leaseHolders: () => readLeaseHolders(options.db, names),
    close,
  };
}
