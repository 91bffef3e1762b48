/**
 * The wake-up channel between the command side and the projectors: one BullMQ queue per
 * projection on Redis. A wake-up carries no events (the event store is the only source of
 * truth); it only says "there may be events after your checkpoint", and who said so: the
 * correlation id and trace context of the append, so that the projector's batch
 * continues the command's trace and names it in its log.
 *
 * Deduplication: BullMQ's `deduplication: { id, keepLastIfActive: true }` keeps at most one
 * waiting wake-up per projection while one is active, so a burst of appends costs one run, and
 * an append that lands while a run is active still gets a run after it (no lost wake-up between
 * the worker's last read and its completion). Redis losing the queue (restart, flush) is covered
 * by the projectors' periodic sweep: an update can be late, never lost.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import { traceCarrier, type TraceCarrier } from '@sinilill/telemetry';

/** Names of the projections that run as workers (one queue each). */
export const PROJECTION_NAMES = ['team-stats', 'team-directory', 'settings', 'admin-directory', 'payments', 'editions'] as const;
export type ProjectionName = (typeof PROJECTION_NAMES)[number];

/**
 * Who asked for a wake-up: the correlation id of the append's command and, when
 * tracing is on, the trace context it was appended in (W3C `traceparent`).
 */
export interface WakeUpOrigin {
  correlationId?: string;
  trace?: TraceCarrier;
}

/**
 * The job a wake-up carries: the global position that prompted it (for lag measurement) and who
 * asked for it. Every field but `position` and `sentAt` is optional: jobs of older senders,
 * and those of tools that say nothing (the CLI's import), have none.
 */
export interface WakeUpJob extends WakeUpOrigin {
  position: number;
  /** Milliseconds since the epoch when the wake-up was sent. */
  sentAt: number;
  /**
   * The further appends a coalesced wake-up stands for (see WakeUpPublisher.wake; at most
   * MAX_WAKE_UP_ORIGINS - 1): the projector links its batch to their traces and logs their
   * correlation ids. `correlationId` and `trace` are the first's.
   */
  coalesced?: WakeUpOrigin[];
}

/** Origins one wake-up job carries at most (a burst's first 16 appends; the rest go unnamed). */
export const MAX_WAKE_UP_ORIGINS = 16;

/** WakeUpPublisher.wake's options. */
export interface WakeOptions {
  /** How long to wait for Redis, ms (default 1000). */
  timeoutMs?: number;
  /** The correlation id of the append (CommittedAppend of @sinilill/commands). */
  correlationId?: string;
}

export const WAKE_UP_JOB = 'wake-up';

/** Queue name of a projection's wake-ups. */
export function projectionQueueName(projection: string): string {
  return `projection-${projection}`;
}

/** BullMQ connection options for a Redis URL (workers need maxRetriesPerRequest null). */
export function redisConnection(redisUrl: string): ConnectionOptions {
  return { url: redisUrl, maxRetriesPerRequest: null };
}

export interface WakeUpPublisherOptions {
  redisUrl: string;
  /** Key prefix, so that several copies (and test runs) can share one Redis. Default 'sinilill'. */
  prefix?: string;
  projections?: readonly string[];
}

/** Sends deduplicated wake-ups to every projection's queue after an append. */
export class WakeUpPublisher {
  private readonly queues: Queue[];
  /** A wake-up is being sent (see wake). */
  private sending = false;
  /** The one wake-up to send after it: the highest position asked for meanwhile, and who asked. */
  private next: {
    position: number; origins: WakeUpOrigin[]; onErrors: ((error: unknown) => void)[]; done: Promise<void>; resolve: () => void;
  } | undefined;

  constructor(options: WakeUpPublisherOptions) {
    const prefix = options.prefix ?? 'sinilill';
    this.queues = (options.projections ?? PROJECTION_NAMES).map(
      (projection) =>
        new Queue(projectionQueueName(projection), {
          connection: redisConnection(options.redisUrl),
          prefix,
          defaultJobOptions: { removeOnComplete: true, removeOnFail: 100 },
        }),
    );
  }

  /**
   * Wakes every projection up for events up to `position`. Never throws and never waits longer
   * than `timeoutMs`: a failed or slow wake-up is reported to `onError` and left to the periodic
   * sweep (the append itself already succeeded).
   *
   * Coalesced: while a wake-up is being sent, further calls only raise the position of
   * the ONE wake-up sent right after it, and resolve when that one is sent. A burst of appends
   * costs two sends per projection instead of one per append, and every append still gets a
   * wake-up sent after its own commit (the follow-up starts after the call that saw it).
   *
   * The job names who asked: `options.correlationId` and the trace context
   * active at the call (a request's span when tracing is on), taken here, at the call, since a
   * coalesced follow-up is sent from another call's context; a coalesced job carries the first
   * MAX_WAKE_UP_ORIGINS of them. (A job BullMQ deduplicates against one still waiting is dropped
   * with its origin: the waiting job's run reads that append's events too.)
   */
  wake(position: number, onError: (error: unknown) => void = () => undefined, options: WakeOptions = {}): Promise<void> {
    const trace = traceCarrier();
    const origin: WakeUpOrigin = {
      ...(options.correlationId === undefined ? {} : { correlationId: options.correlationId }),
      ...(trace === undefined ? {} : { trace }),
    };
    return this.request(position, [origin], onError, options.timeoutMs ?? 1000);
  }

  /** wake, for `origins` (see there). */
  private request(position: number, origins: WakeUpOrigin[], onError: (error: unknown) => void, timeoutMs: number): Promise<void> {
    if (this.sending) {
      if (!this.next) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => { resolve = r; });
        this.next = { position, origins: [], onErrors: [], done, resolve };
      }
      const next = this.next;
      next.position = Math.max(next.position, position);
      next.origins.push(...origins.slice(0, MAX_WAKE_UP_ORIGINS - next.origins.length));
      next.onErrors.push(onError);
      return next.done;
    }
    this.sending = true;
    const sent = this.send(position, origins, onError, timeoutMs).finally(() => {
      this.sending = false;
      const next = this.next;
      this.next = undefined;
      if (next) void this.request(next.position, next.origins, (error) => next.onErrors.forEach((report) => report(error)), timeoutMs).then(next.resolve);
    });
    return sent;
  }

  /** Wakes every projection's queue, at most `timeoutMs` (see wake). */
  private async send(position: number, origins: readonly WakeUpOrigin[], onError: (error: unknown) => void, timeoutMs: number): Promise<void> {
    const [first, ...rest] = origins.filter((origin) => origin.correlationId !== undefined || origin.trace !== undefined);
    const job: WakeUpJob = { position, sentAt: Date.now(), ...first, ...(rest.length > 0 ? { coalesced: rest } : {}) };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        onError(new Error(`wake-up not accepted by Redis within ${timeoutMs} ms`));
        resolve();
      }, timeoutMs);
      timer.unref();
    });
    const sent = Promise.all(
      this.queues.map((queue) =>
        queue
          .add(WAKE_UP_JOB, job, { deduplication: { id: 'wake-up', keepLastIfActive: true } })
          .catch(onError),
      ),
    ).then(() => undefined);
    await Promise.race([sent, timeout]);
    clearTimeout(timer);
  }

  /**
   * Forgets the pending wake-up of every projection (its deduplication key). A wake-up stays
   * deduplicated while a job with its id is waiting or active; the job a killed projector was
   * running stays "active" until BullMQ's stalled check reclaims it (up to two lock periods), and
   * until then every new wake-up was swallowed (seen: projections 60 s behind after a projector
   * was killed). A starting projector calls this; the stale job still runs once when reclaimed,
   * which is harmless (a catch-up finds nothing new).
   */
  async forgetPendingWakeUps(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.removeDeduplicationKey('wake-up')));
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
