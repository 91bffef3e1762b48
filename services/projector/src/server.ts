/**
 * Wires the projector: configuration, the event store (decrypting personal data), read models, BullMQ,
 * and its health and metrics server (./http.ts on PROJECTOR_PORT, /health/live,
 * /health/ready, /metrics; the 'ready' line names the port it bound).
 *
 * Shutdown (close-with-grace): on SIGTERM or SIGINT no new wake-up is taken, each projection's
 * run finishes the batch in progress (apply + checkpoint, one transaction) and stops, the BullMQ
 * workers close (worker.close() waits for the active job), then the pool; exit code 0, within
 * @sinilill/http's SHUTDOWN_DELAY_MS (else 1). A replay job in progress (minutes long, docs/decisions/0017) is not waited for: its
 * worker is closed at once, the rebuild in `rm_next` is abandoned (the live schema is untouched
 * until the swap, docs/decisions/0005), and BullMQ hands the job out again once its lock lapses (stalled job), so
 * it runs again after the restart. An uncaught error is logged (with the error) and exits 1
 * after the same close.
 *
 * Resilience: the pool logs and replaces broken connections, and the start waits for
 * PostgreSQL (waitForPostgres) instead of exiting; a failed batch is retried by the next wake-up
 * or sweep.
 *
 * Several projector processes on one database share the projections: each
 * holds leases on a connection of its own to DATABASE_URL (./leases.ts, ./projector.ts) and logs
 * 'leases changed' with what it holds whenever that changes.
 *
 * Logs and traces: pino JSON lines (log() below); a run woken by a command logs
 * its correlation ids, and with OTEL_EXPORTER_OTLP_ENDPOINT set its batches continue the
 * command's trace (./projector.ts).
 */
import pino from 'pino';
import { createClock, loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, SubjectErasureListener, createEventStore, eventStoreMigrations, pendingMigrations, waitForPostgres, withPersonalDataProtection } from '@sinilill/event-store';
import { createMetricsRegistry, installGracefulShutdown, registerPoolMetrics, migrationsCheck, postgresCheck, redisCheck } from '@sinilill/http';
import { createMailQueue, createRedisReader, createProjectionQueues, createReplayQueue, createStravaQueue } from '@sinilill/messaging';
import { countParkedEvents, createPool, createReadModelDb, projections, readModelMigrationSet } from '@sinilill/read-models';
import { startTelemetry } from '@sinilill/telemetry';
import { lagCheck, startProjectorHttp } from './http';
import { registerEditionMetrics } from './edition-metrics';
import { registerProjectorMetrics } from './metrics';
import { registerOpsMetrics } from './ops-metrics';
import { startProjector } from './projector';
import { startReplayWorker } from './replay-worker';

/**
 * The projector's log: pino's JSON lines on stdout, as the APIs write them
 * (numeric `level`, `time` in ms, `msg`, `err` serialised), with `service: 'projector'`. A
 * `level` of 'warn' or 'error' among the details raises the line's level: the projector's parts
 * name it there (ProjectorOptions.warn, the replay worker's parks).
 */
function log(message: string, details: Record<string, unknown> = {}, level: 'info' | 'warn' | 'error' = 'info'): void {
  const { level: named, ...fields } = details;
  logger[named === 'warn' || named === 'error' ? named : level](fields, message);
}

/** A problem, pino-shaped (fields, then the message; pino serialises an `err`). */
function logError(fields: Record<string, unknown>, message: string): void {
  log(message, fields, 'error');
}

/** A warning, pino-shaped. */
function logWarn(fields: Record<string, unknown>, message: string): void {
  log(message, fields, 'warn');
}

const config = loadConfig();
const logger = pino({ level: config.logLevel }).child({ service: 'projector' });
// Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: started before the pools and
// the Redis connections are made (@sinilill/telemetry), shut down last.
const telemetry = config.otelEndpoint === null ? null : await startTelemetry({ serviceName: 'projector', endpoint: config.otelEndpoint, warn: logError });
const poolLog = { warn: logError };
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
const pool = createPool(databaseUrl, 10, poolLog);
const vault = new PersonalDataVault({ pool });
// The log's engine is configuration (EVENT_STORE, KURRENTDB_URL, docs/event-store-engines.md).
const engineStore = createEventStore({ ...config.eventStore, pool });
const store = withPersonalDataProtection(engineStore, vault, PERSONAL_DATA_FIELDS);
const db = createReadModelDb(pool);
const stopping = new AbortController();
// The schemas the projector uses: waited for at start, then a condition of readiness.
const schemas = [eventStoreMigrations, readModelMigrationSet()];
// Health and metrics (./http.ts, ./metrics.ts), listening before the
// wait for PostgreSQL: a projector waiting for its database is alive, not ready. A port that is
// taken is logged and the projector projects without them (its work does not depend on them).
const metrics = createMetricsRegistry('projector');
const replayQueue = createReplayQueue({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
const queues = [...createProjectionQueues({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix }), replayQueue];
// The command API's queues, watched only (their workers run there): the alerts on failed and
// waiting jobs cover the mails and Strava's sync too (./ops-metrics.ts).
const watched = [
  createMailQueue({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix }),
  createStravaQueue({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix }),
];
// A Redis outage shows in /health/ready and the scrape, not as BullMQ's console output.
for (const queue of [...queues, ...watched]) queue.on('error', () => undefined);
// INFO memory and the backup record, for the alerts (./ops-metrics.ts).
const redis = createRedisReader(required(config.redisUrl, 'REDIS_URL'));
const projectorMetrics = registerProjectorMetrics(metrics, {
  pool, log: engineStore, projections: projections.map((p) => p.name), queues: [...queues, ...watched], replayQueue,
  onError: (metric, error) => logWarn({ metric, err: error }, 'metric not read for a scrape'),
});
registerPoolMetrics(metrics, { main: pool });
registerOpsMetrics(metrics, {
  pool, queues: [...queues, ...watched], redis, prefix: config.queuePrefix,
  parked: () => countParkedEvents(db, projections.map((p) => p.name)),
  onError: (metric, error) => logWarn({ metric, err: error }, 'metric not read for a scrape'),
});
registerEditionMetrics(metrics, {
  log: engineStore, now: createClock(config).now,
  onError: (error) => logWarn({ metric: 'edition', err: error }, 'metric not read for a scrape'),
});
/** Set once the projector has started (its leases claimed, its workers running, caught up once). */
let started = false;
const http = await startProjectorHttp({
  host: config.host, port: config.projectorPort, registry: metrics, logger,
  checks: [
    postgresCheck(pool),
    migrationsCheck(() => pendingMigrations(pool, schemas)),
    redisCheck({ ping: () => replayQueue.getJobCounts('active') }),
    lagCheck(projectorMetrics.lag, config.projectorReadyMaxLag),
    { name: 'started', check: async () => { if (!started) throw new Error('the projector is starting'); } },
  ],
}).catch((error: unknown) => {
  logError({ err: error, host: config.host, port: config.projectorPort }, 'health and metrics server not started; projecting without it');
  return null;
});
if (http) log('health and metrics listening', { host: config.host, port: http.port });
// Started before its database, or before it is migrated: wait rather than exit.
await waitForPostgres(pool, { log: poolLog, signal: stopping.signal, schemas });
// A person erased through a command API is dropped from this vault's key cache within
// milliseconds: no batch projects their name from a cached key afterwards.
const erasures = new SubjectErasureListener({
  connectionString: databaseUrl, vaults: [vault],
  log: { info: (details, message) => log(message, details as Record<string, unknown>), warn: (details, message) => logError(details as Record<string, unknown>, message) },
});
await erasures.start();
const replayWorker = startReplayWorker({
  db, store, projections, redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix, log,
});
const starting = startProjector({
  db, store, projections, databaseUrl,
  redisUrl: required(config.redisUrl, 'REDIS_URL'),
  prefix: config.queuePrefix,
  sweepIntervalMs: config.sweepIntervalMs,
  log,
  onBatch: projectorMetrics.onBatch,
  signal: stopping.signal,
  // KurrentDB's catch-up subscription wakes the runs too; PostgreSQL has none.
  ...(engineStore.subscribe ? { subscribe: engineStore.subscribe.bind(engineStore) } : {}),
});
// Installed before the start-up catch-up is awaited, so a signal during it stops after a batch.
installGracefulShutdown({
  info: (fields, message) => log(message, fields),
  error: logError,
}, async () => {
  stopping.abort();
  // Readiness turns 503 and the probes' socket closes first.
  await http?.close();
  const projector = await starting.catch(() => null);
  // force: a replay in progress is abandoned, not waited for (module docs).
  await Promise.all([projector?.close(), replayWorker.close(true), erasures.close()]);
  await Promise.all([...queues, ...watched].map((queue) => queue.close()));
  redis.disconnect();
  // Disposes the KurrentDB client; a no-op for PostgreSQL, whose pool ends with db.
  await store.close();
  await db.destroy();
  await telemetry?.shutdown();
});
const running = await starting;
started = true;
log('ready', { projections: projections.map((p) => p.name), held: running.held(), port: http?.port ?? null });
