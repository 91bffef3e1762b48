/**
 * Wires the projector: configuration, the event store (decrypting personal data), read models, BullMQ.
 *
 * Shutdown (close-with-grace): on SIGTERM or SIGINT no new wake-up is taken, each projection's
 * run finishes the batch in progress (apply + checkpoint, one transaction) and stops, the BullMQ
 * workers close (worker.close() waits for the active job), then the pool; exit code 0, within
 * @sinilill/http's SHUTDOWN_DELAY_MS (else 1). A replay job in progress (minutes long, D17) is not waited for: its
 * worker is closed at once, the rebuild in `rm_next` is abandoned (the live schema is untouched
 * until the swap, D5), and BullMQ hands the job out again once its lock lapses (stalled job), so
 * it runs again after the restart. An uncaught error is logged (with the error) and exits 1
 * after the same close.
 *
 * Resilience (issue 13): the pool logs and replaces broken connections, and the start waits for
 * PostgreSQL (waitForPostgres) instead of exiting; a failed batch is retried by the next wake-up
 * or sweep.
 *
 * Several projector processes on one database share the projections (issue 16 item 6): each
 * holds leases on a connection of its own to DATABASE_URL (./leases.ts, ./projector.ts) and logs
 * 'leases changed' with what it holds whenever that changes.
 */
import { loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, eventStoreMigrations, waitForPostgres, withPersonalDataProtection } from '@sinilill/event-store';
import { installGracefulShutdown } from '@sinilill/http';
import { createPool, createReadModelDb, projections, readModelMigrationSet } from '@sinilill/read-models';
import { startProjector } from './projector';
import { startReplayWorker } from './replay-worker';

/** One JSON line on stdout, the projector's log format (pino-like `err` for errors). */
function log(message: string, details?: Record<string, unknown>, level: 'info' | 'error' = 'info'): void {
  console.log(JSON.stringify({ level, time: new Date().toISOString(), service: 'projector', message, ...details }));
}

/** An error as a log field (JSON.stringify drops an Error's own properties). */
function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return { type: error.name, message: error.message, stack: error.stack };
}

/** A problem, pino-shaped (fields, then the message), with its `err` serialised. */
function logError(fields: Record<string, unknown>, message: string): void {
  log(message, fields.err === undefined ? fields : { ...fields, err: serializeError(fields.err) }, 'error');
}

const config = loadConfig();
const poolLog = { warn: logError };
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
const pool = createPool(databaseUrl, 10, poolLog);
const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
const db = createReadModelDb(pool);
const stopping = new AbortController();
// Started before its database, or before it is migrated: wait rather than exit (issue 13).
await waitForPostgres(pool, { log: poolLog, signal: stopping.signal, schemas: [eventStoreMigrations, readModelMigrationSet()] });
const replayWorker = startReplayWorker({
  db, store, projections, redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix, log,
});
const starting = startProjector({
  db, store, projections, databaseUrl,
  redisUrl: required(config.redisUrl, 'REDIS_URL'),
  prefix: config.queuePrefix,
  sweepIntervalMs: config.sweepIntervalMs,
  log,
  signal: stopping.signal,
});
// Installed before the start-up catch-up is awaited, so a signal during it stops after a batch.
installGracefulShutdown({
  info: (fields, message) => log(message, fields),
  error: logError,
}, async () => {
  stopping.abort();
  const projector = await starting.catch(() => null);
  // force: a replay in progress is abandoned, not waited for (module docs).
  await Promise.all([projector?.close(), replayWorker.close(true)]);
  await db.destroy();
});
const running = await starting;
log('ready', { projections: projections.map((p) => p.name), held: running.held() });
