/**
 * The series the operators' alerts need beyond the projector's own (./metrics.ts): each read at
 * scrape time (prom-client `collect()`), bounded by `timeoutMs`; a series whose read failed is left
 * out of that scrape rather than failing it, and the failure is told to `onError`.
 *
 * - `sinilill_parked_events{projection}`: events the projection parked and no administrator has
 *   retried or skipped yet (the read models' parked_events, status 'parked');
 * - `sinilill_queue_last_failure_timestamp_seconds{queue}` and
 *   `sinilill_queue_last_completion_timestamp_seconds{queue}`: when the newest failed (completed)
 *   job of the queue finished, Unix seconds; no series while the queue keeps no such job (the
 *   projection queues keep no completed ones). A job counts as failed once its last attempt
 *   failed. Timestamps rather than the failed count: BullMQ keeps only the newest 100 or 1 000
 *   failed jobs, so at that cap a new failure leaves the count as it was;
 * - `sinilill_redis_memory_used_bytes`, `sinilill_redis_memory_max_bytes` (0: no maxmemory set)
 *   and `sinilill_redis_system_memory_bytes`: Redis's INFO memory;
 * - `sinilill_backup_last_success_timestamp_seconds`: when the last successful backup finished
 *   (Unix seconds; the record `npm run backup` leaves in Redis, @sinilill/messaging); 0 while none
 *   is recorded;
 * - `sinilill_postgres_connections` and `sinilill_postgres_max_connections`: client connections
 *   the PostgreSQL server has open (pg_stat_activity, every database) and its max_connections.
 *
 * The last three have no labels, and prom-client reports a label-less gauge even after reset()
 * (as 0): a failed read sets them to NaN instead, which no alert's comparison takes for a value.
 *
 * Like the lag, these describe the shared database and Redis, not this process: every projector
 * reports the same values (aggregate them with max, not sum).
 */
import type pg from 'pg';
import { Gauge, withTimeout, type Registry } from '@sinilill/http';
import { readBackupRecord, readRedisMemory, type Queue, type RedisMemory, type RedisReader } from '@sinilill/messaging';

/** What a failed read was of. */
export type OpsMetric = 'parked' | 'queue-history' | 'redis-memory' | 'backup' | 'postgres-connections';

export interface OpsMetricsOptions {
  /** A pool on the PostgreSQL server (pg_stat_activity and max_connections). */
  pool: Pick<pg.Pool, 'query'>;
  /** The open parks per projection (@sinilill/read-models' countParkedEvents). */
  parked: () => Promise<readonly { projection: string; parked: number }[]>;
  /** The queues whose newest failed and completed jobs are reported. */
  queues: readonly Pick<Queue, 'name' | 'getFailed' | 'getCompleted'>[];
  /** A client of the Redis the queues use (INFO memory, the backup record). */
  redis: RedisReader;
  /** The queues' key prefix (QUEUE_PREFIX), under which the backup is recorded. */
  prefix?: string;
  /** Bound of each scrape-time read, ms (default 1000). */
  timeoutMs?: number;
  /** Told when a scrape-time read fails (those series are left out of the scrape). */
  onError?: (what: OpsMetric, error: unknown) => void;
}

/** The finish time of a job, Unix seconds, or null when it has none. */
function finishedSeconds(job: { finishedOn?: number | undefined } | undefined): number | null {
  return job?.finishedOn === undefined ? null : job.finishedOn / 1000;
}

/**
 * One read shared by the gauges it fills: prom-client collects the metrics of a scrape
 * concurrently, so the second gauge joins the read the first one started.
 */
function sharedRead(read: () => Promise<void>): () => Promise<void> {
  let reading: Promise<void> | null = null;
  return () => {
    reading ??= read().finally(() => { reading = null; });
    return reading;
  };
}

/** Registers the series above (module docs) in `registry`; call once per registry. */
export function registerOpsMetrics(registry: Registry, options: OpsMetricsOptions): void {
  const timeoutMs = options.timeoutMs ?? 1000;
  const failed = (what: OpsMetric, error: unknown) => options.onError?.(what, error);

  const parked: Gauge<'projection'> = new Gauge({
    name: 'sinilill_parked_events', help: 'Events the projection parked that no administrator has retried or skipped yet',
    labelNames: ['projection'] as const, registers: [registry],
    async collect() {
      parked.reset();
      try {
        for (const row of await withTimeout(options.parked(), timeoutMs)) parked.set({ projection: row.projection }, row.parked);
      } catch (error) {
        failed('parked', error);
      }
    },
  });

  const readQueueHistory = sharedRead(async () => {
    lastFailure.reset();
    lastCompletion.reset();
    try {
      const newest = await withTimeout(Promise.all(options.queues.map(async (queue) => {
        const [[failedJob], [completedJob]] = await Promise.all([queue.getFailed(0, 0), queue.getCompleted(0, 0)]);
        return { queue: queue.name, failure: finishedSeconds(failedJob), completion: finishedSeconds(completedJob) };
      })), timeoutMs);
      for (const { queue, failure, completion } of newest) {
        if (failure !== null) lastFailure.set({ queue }, failure);
        if (completion !== null) lastCompletion.set({ queue }, completion);
      }
    } catch (error) {
      failed('queue-history', error);
    }
  });
  const lastFailure = new Gauge({
    name: 'sinilill_queue_last_failure_timestamp_seconds', help: 'When the queue\'s newest failed job (all attempts failed) finished, Unix seconds',
    labelNames: ['queue'] as const, registers: [registry], collect: readQueueHistory,
  });
  const lastCompletion = new Gauge({
    name: 'sinilill_queue_last_completion_timestamp_seconds', help: 'When the queue\'s newest completed job finished, Unix seconds',
    labelNames: ['queue'] as const, registers: [registry], collect: readQueueHistory,
  });

  const readMemory = sharedRead(async () => {
    let memory: RedisMemory | null = null;
    try {
      memory = await withTimeout(readRedisMemory(options.redis), timeoutMs);
    } catch (error) {
      failed('redis-memory', error);
    }
    for (const [gauge, value] of [[memoryUsed, memory?.used], [memoryMax, memory?.max], [memorySystem, memory?.system]] as const) {
      gauge.set(value ?? Number.NaN);
    }
  });
  const memoryUsed = new Gauge({
    name: 'sinilill_redis_memory_used_bytes', help: 'Memory Redis holds (INFO used_memory), bytes', registers: [registry], collect: readMemory,
  });
  const memoryMax = new Gauge({
    name: 'sinilill_redis_memory_max_bytes', help: 'Redis\'s maxmemory, bytes (0: no limit set)', registers: [registry], collect: readMemory,
  });
  const memorySystem = new Gauge({
    name: 'sinilill_redis_system_memory_bytes', help: 'Memory of the host Redis runs on (INFO total_system_memory), bytes', registers: [registry], collect: readMemory,
  });

  const backup: Gauge = new Gauge({
    name: 'sinilill_backup_last_success_timestamp_seconds', help: 'When the last successful backup (npm run backup) finished, Unix seconds (0: none recorded)',
    registers: [registry],
    async collect() {
      try {
        const record = await withTimeout(readBackupRecord(options.redis, options.prefix), timeoutMs);
        backup.set(record ? Date.parse(record.finishedAt) / 1000 : 0);
      } catch (error) {
        backup.set(Number.NaN);
        failed('backup', error);
      }
    },
  });

  const readConnections = sharedRead(async () => {
    connections.set(Number.NaN);
    maxConnections.set(Number.NaN);
    try {
      const { rows: [row] } = await withTimeout(options.pool.query<{ open: number; max: number }>({
        name: 'projector.connections',
        text: `SELECT count(*)::int AS open, current_setting('max_connections')::int AS max
                 FROM pg_stat_activity WHERE backend_type = 'client backend'`,
      }), timeoutMs);
      if (row) {
        connections.set(row.open);
        maxConnections.set(row.max);
      }
    } catch (error) {
      failed('postgres-connections', error);
    }
  });
  const connections = new Gauge({
    name: 'sinilill_postgres_connections', help: 'Client connections open on the PostgreSQL server (pg_stat_activity, every database)',
    registers: [registry], collect: readConnections,
  });
  const maxConnections = new Gauge({
    name: 'sinilill_postgres_max_connections', help: 'The PostgreSQL server\'s max_connections', registers: [registry], collect: readConnections,
  });
}
