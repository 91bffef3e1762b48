/**
 * Wires the query API: configuration, the read-model pool, the clock, the token secret and the
 * process's one read-model change listener (live updates); then listens.
 */
import { createClock, loadConfig, required } from '@sinilill/config';
import { MediaStore } from '@sinilill/media';
import { createPool, createReadModelDb } from '@sinilill/read-models';
import { buildQueryApi } from './app';
import { ReadModelChangeListener } from './live';

const config = loadConfig();
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
const pool = createPool(databaseUrl, 20);
const db = createReadModelDb(pool);
const clock = createClock(config);
// Its log calls come only after a connection drop, when `app` exists.
const changes = new ReadModelChangeListener({
  connectionString: databaseUrl,
  log: { info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message) },
});
await changes.start();
const app = buildQueryApi({
  db,
  now: () => clock.now(),
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  jwtSecret: config.jwtSecret,
  changes,
  media: new MediaStore(pool),
  news: { strapiUrl: config.strapiUrl, strapiToken: config.strapiToken },
  logger: { level: config.logLevel },
});
app.addHook('onClose', async () => {
  await changes.close();
  await db.destroy();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)); });
}
await app.listen({ host: config.host, port: config.queryApiPort });
