/** Wires the query API: configuration, the read-model pool, the clock; then listens. */
import { createClock, loadConfig, required } from '@sinilill/config';
import { createPool, createReadModelDb } from '@sinilill/read-models';
import { buildQueryApi } from './app';

const config = loadConfig();
const pool = createPool(required(config.databaseUrl, 'DATABASE_URL'), 20);
const db = createReadModelDb(pool);
const clock = createClock(config);
const app = buildQueryApi({
  db,
  now: () => clock.now(),
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  logger: { level: config.logLevel },
});
app.addHook('onClose', async () => { await db.destroy(); });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)); });
}
await app.listen({ host: config.host, port: config.queryApiPort });
