/**
 * Wires the query API: configuration, the read-model pool, the clock, the token secret, the
 * process's one read-model change listener (live updates) and the protected event store the
 * administrators' history reads (D16); then listens.
 */
import { createClock, loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { MediaStore } from '@sinilill/media';
import { createPool, createReadModelDb } from '@sinilill/read-models';
import { buildQueryApi } from './app';
import { ReadModelChangeListener } from './live';

const config = loadConfig();
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
const pool = createPool(databaseUrl, 20);
const db = createReadModelDb(pool);
const clock = createClock(config);
// Read-only here (the history); the same database and pool as the read models, and the same
// protection as the command API's store, so erased people read null in the history too.
// No key cache (cacheTtlMs 0): an erasure happens in the command API's process, and the audit
// reads must show it at once, not after a cached key expires. Each history page or export
// batch loads its keys in one query.
const history = withPersonalDataProtection(
  new PostgresEventStore({ pool }), new PersonalDataVault({ pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS,
);
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
  history,
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
