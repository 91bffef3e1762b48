/** Wires the projector: configuration, the event store (decrypting personal data), read models, BullMQ. */
import { loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { createPool, createReadModelDb, projections } from '@sinilill/read-models';
import { startProjector } from './projector';
import { startReplayWorker } from './replay-worker';

const config = loadConfig();
const pool = createPool(required(config.databaseUrl, 'DATABASE_URL'), 10);
const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
const db = createReadModelDb(pool);
const projector = await startProjector({
  db, store, projections,
  redisUrl: required(config.redisUrl, 'REDIS_URL'),
  prefix: config.queuePrefix,
  sweepIntervalMs: config.sweepIntervalMs,
  log: (message, details) => console.log(JSON.stringify({ service: 'projector', message, ...details })),
});
const log = (message: string, details?: Record<string, unknown>) => console.log(JSON.stringify({ service: 'projector', message, ...details }));
const replayWorker = startReplayWorker({
  db, store, projections, redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix, log,
});
console.log(JSON.stringify({ service: 'projector', message: 'ready', projections: projections.map((p) => p.name) }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([projector.close(), replayWorker.close()]).then(() => db.destroy()).then(() => process.exit(0));
  });
}
