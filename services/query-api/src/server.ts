/**
 * Wires the query API: configuration, the read-model pool, the clock, the token secret, the
 * process's one read-model change listener (live updates; the projections' positions that wake
 * read-your-writes waits and keep the public answers' cache current), the protected event store the
 * administrators' history reads (docs/decisions/0016), the session check kept in memory with its
 * LISTEN on session changes (docs/decisions/0100) and the manual bank transfer's details (a warning
 * when production shows the made-up ones); then listens.
 *
 * Shutdown (installShutdown, @sinilill/http): on SIGTERM or SIGINT /health/ready answers 503, the
 * open live streams are ended (the team routes' preClose; a browser's EventSource reconnects to
 * another process), the server stops accepting, the reads in flight finish, then the change
 * listener and the pool are released and the process exits 0, within SHUTDOWN_DELAY_MS (10 s;
 * else exit 1). An uncaught error is logged and exits 1 the same way.
 */
import { bankTransferConfig, configWarnings, createClock, loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, ReconnectingListener, createEventStore, eventStoreMigrations, pendingMigrations, waitForPostgres, withPersonalDataProtection } from '@sinilill/event-store';
import { SESSION_CHANGES_CHANNEL, SessionCache, createMetricsRegistry, earlyLog, installShutdown, registerPoolMetrics, migrationsCheck, postgresCheck, sessionListenerUrl, sqlSessionAuthority } from '@sinilill/http';
import { MediaStore, mediaMigrations } from '@sinilill/media';
import { createPool, createReadModelDb, readCheckpoints, readModelMigrationSet } from '@sinilill/read-models';
import { startTelemetry } from '@sinilill/telemetry';
import { Redis } from 'ioredis';
import { buildQueryApi } from './app';
import { ReadModelChangeListener } from './live';
import { queryRateLimitsOf } from './rate-limits';

const config = loadConfig();
const bankTransfer = bankTransferConfig();
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
// Pool warnings before the app (and its logger) exist go to stderr, then through app.log.
const poolLog = earlyLog();
// Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: started before the pool and
// the Fastify instance (@sinilill/telemetry), shut down last.
const telemetry = config.otelEndpoint === null ? null : await startTelemetry({ serviceName: 'query-api', endpoint: config.otelEndpoint, warn: poolLog.warn });
const pool = createPool(databaseUrl, 20, poolLog);
// Started before its database: wait for it rather than exit.
// The schemas this service reads: waited for at start, then a condition of readiness.
const schemas = [eventStoreMigrations, mediaMigrations, readModelMigrationSet()];
await waitForPostgres(pool, { log: poolLog, schemas });
// The process's metrics: request durations (app.ts), the pool's state, process.
const metrics = createMetricsRegistry('query-api');
registerPoolMetrics(metrics, { main: pool });
const db = createReadModelDb(pool);
const clock = createClock(config);
// Read-only here (the history, "what this did", my data, the draw), on the configured engine
// (EVENT_STORE), with the same protection as the command API's store, so erased people read null
// in the history too. No key cache (cacheTtlMs 0): an erasure happens in the command API's
// process, and the audit reads must show it at once, not after a cached key expires. Each
// history page or export batch loads its keys in one query.
const history = withPersonalDataProtection(
  createEventStore({ ...config.eventStore, pool }), new PersonalDataVault({ pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS,
);
// Its log calls come only after a connection drop, when `app` exists.
const changes = new ReadModelChangeListener({
  connectionString: databaseUrl,
  readCheckpoints: () => readCheckpoints(db),
  log: { info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message) },
});
await changes.start();
// The public routes' rate-limit counters (docs/decisions/0108), shared with every query-API process
// as the command API's are: 250 ms per command, no offline queue, so that a Redis that does not
// answer makes the counters count in this process at once instead of holding requests.
const rateLimitRedis = new Redis(required(config.redisUrl, 'REDIS_URL'), {
  commandTimeout: 250, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2000,
});
// Its connection errors are the counters' to report (once per outage), not ioredis's to print.
rateLimitRedis.on('error', () => undefined);
// The session check kept in memory while its LISTEN hears every session change (@sinilill/http
// session-cache.ts, docs/decisions/0100): sessions ended by the command API are refused here on
// the next request; while the LISTEN is down every request asks PostgreSQL.
const sessions = new SessionCache(
  sqlSessionAuthority((text, values) => pool.query(text, [...values]), (stream) => history.readStream(stream)),
  { onUnnotified: () => app.log.warn('session changes are not notified (accounts migration 0007 pending): every request checks its session in PostgreSQL') },
);
const sessionChanges = new ReconnectingListener({
  connectionString: sessionListenerUrl(databaseUrl), channel: SESSION_CHANGES_CHANNEL, name: 'session change listener', hooks: sessions.hooks,
  log: { info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message) },
});
await sessionChanges.start();
const app = buildQueryApi({
  sessions,
  db,
  now: () => clock.now(),
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  jwtSecret: config.jwtSecret,
  // The site's public address: certificates' QR codes and the share page's og:image.
  publicUrl: config.publicUrl,
  changes,
  positions: changes,
  media: new MediaStore(pool),
  news: { strapiUrl: config.strapiUrl, strapiToken: config.strapiToken },
  history,
  bankTransfer,
  logger: { level: config.logLevel },
  // TRUST_PROXY: whose X-Forwarded-For is believed (the gateway's address; loopback by default, docs/decisions/0024).
  trustProxy: config.trustProxy,
  // Ready while PostgreSQL answers and every schema is migrated (Redis holds only the rate-limit
  // counters, which count in the process while it is away); /metrics with the process metrics.
  metrics,
  readinessChecks: [postgresCheck(pool), migrationsCheck(() => pendingMigrations(pool, schemas))],
  redis: rateLimitRedis,
  rateLimitPrefix: `${config.queuePrefix}:rate-limit:`,
  rateLimits: queryRateLimitsOf(config.publicRateLimits),
});
poolLog.attach(app);
// Not refused, but said (made-up bank details in production; @sinilill/config configWarnings).
for (const warning of configWarnings(config, bankTransfer)) app.log.warn(warning);
// onClose runs after the server has closed and the last request in flight has answered.
app.addHook('onClose', async () => {
  await sessionChanges.close();
  await changes.close();
  // Releases a KurrentDB client; a PostgreSQL store leaves the pool to db.destroy().
  await history.close();
  await db.destroy();
  rateLimitRedis.disconnect();
  await telemetry?.shutdown();
});
installShutdown(app);
await app.listen({ host: config.host, port: config.queryApiPort });
