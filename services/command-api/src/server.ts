/**
 * Wires the command API: configuration, the event store (with personal-data protection, and the
 * projectors' wake-up as its after-commit hook: every append that wrote something wakes them,
 * whichever command made it), ids, the account tables, outgoing mail, the global
 * switches, moderation's figures, the session check kept in memory (command-side.ts), the payment provider
 * (PAYMENT_PROVIDER), Strava sync (STRAVA_*: its queue, worker and webhook subscription), the rate-limit counters in Redis (docs/decisions/0024), the LISTEN that drops personal-data
 * keys erased by other processes, the LISTEN that drops sessions ended by any process; and the first administrator
 * (ADMIN_EMAIL, ADMIN_PASSWORD) at start.
 *
 * Shutdown (installShutdown, @sinilill/http): on SIGTERM or SIGINT /health/ready answers 503, the
 * server stops accepting, the commands in flight finish (their appends and wake-ups included),
 * then mail, queues, Redis and both pools are released and the process exits 0, within
 * SHUTDOWN_DELAY_MS (10 s; else exit 1). An uncaught error is logged and exits 1 the same way.
 */
import { AccountDirectory, StravaClient, StravaConnections, StravaSync, accountMigrations, withAfterCommit } from '@sinilill/commands';
import { mapActivityType } from '@sinilill/activity-files';
import { createClock, loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, SubjectErasureListener, createEventStore, createResilientPool, eventStoreMigrations, pendingMigrations, waitForPostgres, withPersonalDataProtection } from '@sinilill/event-store';
import { createMetricsRegistry, earlyLog, installShutdown, registerPoolMetrics, migrationsCheck, postgresCheck, redisCheck } from '@sinilill/http';
import { smtpMailer } from '@sinilill/mail';
import { MediaStore, mediaMigrations } from '@sinilill/media';
import { readModelMigrationSet } from '@sinilill/read-models';
import { WakeUpPublisher, createProjectionQueues, createReplayQueue, createStravaQueue, enqueueStravaJob, type StravaJob } from '@sinilill/messaging';
import { createProvider } from '@sinilill/payments';
import { startTelemetry } from '@sinilill/telemetry';
import { Redis } from 'ioredis';
import { withAppendMetrics } from './append-metrics';
import { Announcements } from './announcements';
import { DEFAULT_RATE_LIMITS, buildCommandApi } from './app';
import { commandSide, sessionChangeListener } from './command-side';
import { redisSharedCache } from './shared-cache';
import { derivedVerifyToken } from './strava-state';
import { StravaThrottle, ensureStravaSubscription, startStravaWorker } from './strava-worker';

const config = loadConfig();
const databaseUrl = required(config.databaseUrl, 'DATABASE_URL');
// Pool warnings before the app (and its logger) exist go to stderr, then through app.log.
const poolLog = earlyLog();
// Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: started before the first
// pool, Redis connection and Fastify instance (@sinilill/telemetry), shut down last.
const telemetry = config.otelEndpoint === null ? null : await startTelemetry({ serviceName: 'command-api', endpoint: config.otelEndpoint, warn: poolLog.warn });
const pool = createResilientPool({ connectionString: databaseUrl, max: 20, log: poolLog });
// The account tables get their own pool: a registration holds one of its connections across the
// event store's append (see AccountDirectory), which must never wait for a connection of its own.
const accountPool = createResilientPool({ connectionString: databaseUrl, max: 10, log: poolLog });
// The schemas this service uses: waited for at start, then a condition of readiness.
const schemas = [eventStoreMigrations, accountMigrations, mediaMigrations, readModelMigrationSet()];
// Started before its database: wait for it rather than exit.
await waitForPostgres(pool, { log: poolLog, schemas });
// The process's metrics: request durations (app.ts), appends (below), process.
const metrics = createMetricsRegistry('command-api');
registerPoolMetrics(metrics, { main: pool, accounts: accountPool });
const vault = new PersonalDataVault({ pool });
const publisher = new WakeUpPublisher({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
// The store's after-commit hook: every append that wrote something wakes the projectors (a failed
// wake-up is left to their periodic sweep). `app` exists by the time anything appends.
// Measured outermost (append-metrics.ts): the latency a command waits for.
const store = withAppendMetrics(withAfterCommit(
  // The log's engine is configuration (EVENT_STORE, KURRENTDB_URL, docs/event-store-engines.md).
  withPersonalDataProtection(createEventStore({ ...config.eventStore, pool }), vault, PERSONAL_DATA_FIELDS),
  // It runs in the request's async context: the wake-up carries the request's trace context and
  // the events' correlation id to the projector.
  (position, append) => {
    void publisher.wake(position, (error) => app.log.warn({ err: error }, 'wake-up failed; the sweep will catch up'), { correlationId: append.correlationId });
  },
), metrics);
const clock = createClock(config);
const now = () => clock.now();
// The replay queue (the projector's replay worker takes its jobs) and every queue for the board (docs/decisions/0017).
const replayQueue = createReplayQueue({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
const projectionQueues = createProjectionQueues({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
// The rate-limit counters (docs/decisions/0024): a command that Redis does not answer within 250 ms fails, and
// while Redis is down commands fail at once (no offline queue); the counters then count in this
// process until it answers again. Reconnection goes on in the background.
const rateLimitRedis = new Redis(required(config.redisUrl, 'REDIS_URL'), {
  commandTimeout: 250, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2000,
});
// Its connection errors are the counters' to report (once per outage), not ioredis's to print.
rateLimitRedis.on('error', () => undefined);
const directory = new AccountDirectory({ pool: accountPool, indexSecret: config.emailIndexSecret });
const mailer = smtpMailer({ url: config.smtpUrl ?? `smtp://127.0.0.1:${config.maildevSmtpPort}`, from: config.mailFrom });
// The commands, accounts and the session check as the round-trips test builds them too
// (command-side.ts): ids in blocks, the switches' cache, moderation's figures warm, sessions kept
// in memory while the LISTEN below is up. Admin deletions destroy the person's key (docs/decisions/0002).
const { commands, accounts, sessions } = commandSide({
  pool, store, directory, now, mailer, publicUrl: config.publicUrl, personalData: vault,
  onMailError: (error, kind) => app.log.error({ err: error, kind }, 'mail not sent'),
  onUnnotifiedSessions: () => app.log.warn('session changes are not notified (accounts migration 0007 pending): every request checks its session in PostgreSQL'),
});
// Announcements: the mail queue and its worker run in this process, with this process's mailer;
// the audience is read from the log through the store (either engine; see announcements.ts).
const announcements = new Announcements({
  store, redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix, mailer, publicUrl: config.publicUrl,
  secret: config.jwtSecret, now,
  log: { warn: (details, message) => app.log.warn(details, message) },
});
// Strava sync (docs/decisions/0095, 0096), when the site has a Strava API application: its queue
// and worker run in this process; the connections live in the account tables.
const strava = config.strava === null ? null : (() => {
  const settings = config.strava;
  const throttle = new StravaThrottle(15 * 60_000);
  const client = new StravaClient({ ...settings, onLimits: (limits) => throttle.seen(limits) });
  const queue = createStravaQueue({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
  const enqueue = (job: StravaJob) => enqueueStravaJob(queue, job);
  const connections = new StravaConnections(accountPool, vault);
  const sync = new StravaSync({ commands, connections, client, mapType: (sport) => mapActivityType(sport), enqueue });
  const verifyToken = settings.webhookVerifyToken ?? derivedVerifyToken(config.jwtSecret);
  return { client, queue, throttle, connections, sync, enqueue, verifyToken };
})();
const app = buildCommandApi({
  commands,
  accounts,
  sessions,
  // Schema `media` is migrated by the launcher's migrateAll, like every other schema.
  media: new MediaStore(pool),
  jwtSecret: config.jwtSecret,
  activityFileHeapMb: config.activityFileHeapMb,
  logger: { level: config.logLevel },
  // TRUST_PROXY: whose X-Forwarded-For is believed (the gateway's address; loopback by default, docs/decisions/0024).
  trustProxy: config.trustProxy,
  replayQueue,
  boardQueues: [...projectionQueues, replayQueue, announcements.queue, ...(strava ? [strava.queue] : [])],
  strava: strava && {
    sync: strava.sync, connections: strava.connections, authorizeUrl: (uri, state, scope) => strava.client.authorizeUrl(uri, state, scope),
    publicUrl: config.publicUrl, verifyToken: strava.verifyToken, enqueue: strava.enqueue,
  },
  // The provider's bank list is kept in Redis for every command-API process.
  payments: {
    provider: createProvider(config.payments, { publicUrl: config.publicUrl, cache: redisSharedCache(rateLimitRedis, `${config.queuePrefix}:`) }),
    publicUrl: config.publicUrl,
    // The provider's answers to keyed orders, for their retries in any process (routes/payments.ts).
    answers: redisSharedCache(rateLimitRedis, `${config.queuePrefix}:`),
  },
  redis: rateLimitRedis,
  rateLimitPrefix: `${config.queuePrefix}:rate-limit:`,
  // Kept answers of keyed requests that leave no event (shared-cache.ts onceWithKeptAnswer).
  keptAnswers: redisSharedCache(rateLimitRedis, `${config.queuePrefix}:`),
  // RATE_LIMIT_* of the configuration (docs/decisions/0108); the account routes' other limits are the defaults.
  rateLimits: {
    unsubscribesPerAddress: { ...DEFAULT_RATE_LIMITS.unsubscribesPerAddress, max: config.publicRateLimits.unsubscribes },
    accountConfirmationsPerAddress: { ...DEFAULT_RATE_LIMITS.accountConfirmationsPerAddress, max: config.publicRateLimits.accountConfirmations },
  },
  metrics,
  // Ready while PostgreSQL answers, every schema is migrated and Redis answers (the rate-limit
  // client: no offline queue, so a PING fails at once while Redis is down).
  announcements,
  readinessChecks: [postgresCheck(pool), migrationsCheck(() => pendingMigrations(pool, schemas)), redisCheck(rateLimitRedis)],
});
// onClose runs after the server has closed and the last request in flight has answered.
const stravaWorker = strava && startStravaWorker({
  redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix, sync: strava.sync, throttle: strava.throttle, metrics,
  limit: { max: config.stravaReadRateLimit, durationMs: 15 * 60_000 },
  log: { warn: (details, message) => app.log.warn(details, message) },
});
app.addHook('onClose', async () => {
  await stravaWorker?.close();
  await strava?.queue.close();
  await announcements.close();
  mailer.close();
  await publisher.close();
  await Promise.all([replayQueue.close(), ...projectionQueues.map((q) => q.close())]);
  rateLimitRedis.disconnect();
  // Disposes the KurrentDB client; a no-op for PostgreSQL, whose pool ends below.
  await store.close();
  await accountPool.end();
  await pool.end();
  await telemetry?.shutdown();
});
poolLog.attach(app);
installShutdown(app);
// Erasures made by any process (another command API's admin deletion) drop the key from this
// vault's cache within milliseconds, not after its TTL. Started once `app`
// (its logger) exists; until then the vault caches no live key.
const erasures = new SubjectErasureListener({
  connectionString: databaseUrl, vaults: [vault],
  log: { info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message) },
});
// Session changes made by any process (a logout, a password change, a deletion) drop this
// process's kept sessions when they commit; until the LISTEN is up every request asks PostgreSQL.
const sessionChanges = sessionChangeListener(databaseUrl, sessions, {
  info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message),
});
app.addHook('onClose', async () => {
  await erasures.close();
  await sessionChanges.close();
});
await erasures.start();
await sessionChanges.start();
if (config.admin) {
  const admin = await accounts.ensureAdmin(config.admin.email, config.admin.password);
  // Its append (when something changed) woke the projectors through the store's hook.
  app.log.info({ userId: admin.userId, changed: admin.changed }, 'administrator from ADMIN_EMAIL is in place');
}
announcements.startWorker();
await app.listen({ host: config.host, port: config.commandApiPort });
// After listening: Strava calls our webhook's handshake before it answers the subscription.
if (strava) {
  void ensureStravaSubscription({
    pool, client: strava.client, callbackUrl: `${config.publicUrl}/api/strava/webhook`, verifyToken: strava.verifyToken,
    log: { info: (details, message) => app.log.info(details, message), warn: (details, message) => app.log.warn(details, message) },
  });
}
