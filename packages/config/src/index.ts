/**
 * Typed configuration, read once from the environment, with defaults for the embedded mode
 * (`npm start` on a fresh clone needs no configuration at all). One TypeBox schema
 * (./schema.ts, ConfigSchema) describes every variable; loadConfig validates the whole
 * environment against it and reports every bad or missing variable in one ConfigError.
 * infra/env.example lists them all (a test keeps the two in step).
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | NODE_ENV | `development`, `test` or `production`; production refuses the development defaults (below) | development |
 * | PORT | where the web client and /api are served (the gateway) | 3000 |
 * | HOST | interface to listen on | 127.0.0.1 |
 * | COMMAND_API_PORT, QUERY_API_PORT | internal ports of the two APIs (the gateway proxies to them) | PORT + 1, PORT + 2 |
 * | PUBLIC_URL | the site's address, for links in mails and payment returns (http(s)) | http://HOST:PORT (127.0.0.1 for 0.0.0.0) |
 * | WEB_ROOT | the built web client the gateway serves | web/dist |
 * | LOG_LEVEL | pino level for the services: fatal, error, warn, info, debug, trace, silent | info |
 * | PROJECTOR_PORT | the projector's /health/live, /health/ready and /metrics (0: any free port) | PORT + 7 |
 * | PROJECTOR_READY_MAX_LAG | the projector is ready while no projection is more than this many events behind | 10000 |
 * | COMMAND_API_URLS, QUERY_API_URLS | the APIs the gateway balances over, comma-separated | http://127.0.0.1:COMMAND_API_PORT, …QUERY_API_PORT |
 * | TRUST_PROXY | proxies whose X-Forwarded-For the APIs and the gateway believe (loopback, CIDRs, comma-separated) | loopback |
 * | OTEL_EXPORTER_OTLP_ENDPOINT | OpenTelemetry collector (OTLP/HTTP) for traces | (none: no traces) |
 * | DATA_DIR | embedded PostgreSQL's and Redis's files, MailDev's mail, the generated secrets | ./.data |
 * | DATABASE_URL | an existing PostgreSQL (postgres://…) instead of the embedded one | (embedded) |
 * | EMBEDDED_POSTGRES_PORT | the embedded PostgreSQL's port | PORT + 3 |
 * | EVENT_STORE | where the event log lives: `postgres` or `kurrentdb` | postgres |
 * | KURRENTDB_URL | KurrentDB connection string; required with EVENT_STORE=kurrentdb | (none) |
 * | REDIS_URL | an existing Redis (redis:// or rediss://…) instead of a local redis-server | (local) |
 * | EMBEDDED_REDIS_PORT | the local redis-server's port | PORT + 4 |
 * | BULLMQ_PREFIX | key prefix of the BullMQ queues (copies sharing one Redis differ) | sinilill |
 * | JWT_SECRET | HS256 secret for tokens, at least 32 characters; generated into DATA_DIR when unset | (generated) |
 * | EMAIL_INDEX_SECRET | key of the e-mail lookup index (HMAC), at least 32 characters; keep it as stable as the data | (generated) |
 * | CLOCK | `simulated` or `real` | simulated |
 * | CLOCK_START | simulated clock: ISO-8601 instant with an offset the app's clock starts at, then runs (the default lies between the 2025 and 2026 editions) | 2026-02-15T12:00:00+02:00 |
 * | SWEEP_INTERVAL_MS | projectors' periodic catch-up (covers a lost wake-up), 100–3600000 | 5000 |
 * | READ_YOUR_WRITES_TIMEOUT_MS | how long a query waits for x-min-position, 0–3600000 | 3000 |
 * | ACTIVITY_FILE_HEAP_MB | heap of the child process that reads one activity file, MB, 64–8192 (GPX and TCX are streamed: a 19 MB GPX reads in a 32 MB heap, docs/decisions/0092; a reader out of heap answers ACTIVITY_FILE_TOO_LARGE) | 512 |
 * | FIXTURE_DIR | the 2025 export imported on first start | infra/seed/edition-2025 |
 * | IMPORT_ON_START | import the fixture on first start (`true` or `false`) | true |
 * | DEMO_NEXT_EDITION | after the first-start import, close the editions before this year and plan and open the seed edition of this year (2000–9999); set but empty: no demo | 2026 |
 * | SMTP_URL | real SMTP (smtp://… or smtps://…) for outgoing mail | (local MailDev) |
 * | MAIL_FROM | sender of outgoing mail | Sinilill <info@sinilill.ee> |
 * | MAILDEV_SMTP_PORT, MAILDEV_WEB_PORT | the local MailDev's SMTP port and inbox page | PORT + 5, PORT + 6 |
 * | ADMIN_EMAIL, ADMIN_PASSWORD | create or update an approved admin at start (both or neither) | (none) |
 * | STRAPI_URL | Strapi 5 the news page reads its stories from (http(s)://host[:port]) | (none: infra/content/news) |
 * | STRAPI_TOKEN | API token sent to Strapi as `Authorization: Bearer …` (read-only token) | (none) |
 * | PAYMENT_PROVIDER | `sandbox` (the local test bank) or `montonio` (Montonio's Stargate API); unset: payments unavailable | (none; `npm start` sets sandbox in development) |
 * | ALLOW_PAYMENT_SANDBOX | `true` lets production run the payment sandbox | false |
 * | SANDBOX_PAYMENT_SECRET | HS256 secret of the sandbox's notifications, at least 32 characters; generated into DATA_DIR when unset | (generated) |
 * | MONTONIO_ACCESS_KEY, MONTONIO_SECRET_KEY | the Montonio store's API keys; required with PAYMENT_PROVIDER=montonio | (none) |
 * | MONTONIO_API_URL | Montonio's API base URL | https://sandbox-stargate.montonio.com/api |
 * | STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET | the Strava API application's id and secret; both set = Strava sync on (docs/operations.md "Strava") | (none: no Strava) |
 * | STRAVA_WEBHOOK_VERIFY_TOKEN | the webhook subscription's hub.verify_token | (derived from JWT_SECRET) |
 * | STRAVA_READ_RATE_LIMIT | the application's read limit per 15 minutes: the Strava queue's cap across processes | 100 |
 * | STRAVA_API_URL, STRAVA_OAUTH_URL | Strava's API and OAuth base URLs | https://www.strava.com/api/v3, https://www.strava.com/oauth |
 * | BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN | the account payers transfer the fee to by hand (spec §2 "Payment"): its name (≤ 70) and IBAN or account number | (a made-up example; production warns) |
 * | BANK_TRANSFER_DESCRIPTION | the payment description payers write (≤ 140), with {participantId} and optionally {teamId}, {year} | Sinilill {year} ID {participantId} |
 * | RATE_LIMIT_CERTIFICATE_CHECKS | certificate verifications per client address in 10 minutes (docs/decisions/0108) | 60 |
 * | RATE_LIMIT_DRAW_READS | prize draw reads per client address in a minute | 60 |
 * | RATE_LIMIT_SHARE_RENDERS | share images and pages per client address in a minute | 60 |
 * | RATE_LIMIT_IMAGES | stored images (team icons) per client address in a minute | 1200 |
 * | RATE_LIMIT_NEWS_READS | news reads per client address in a minute | 60 |
 * | RATE_LIMIT_UNSUBSCRIBES | newsletter unsubscriptions per client address in 10 minutes | 20 |
 * | RATE_LIMIT_ACCOUNT_CONFIRMATIONS | account confirmations per client address in 15 minutes | 20 |
 *
 * Paths are resolved against the working directory; their defaults against the repository root.
 * Empty values count as unset. With NODE_ENV=production the development defaults are refused:
 * JWT_SECRET, EMAIL_INDEX_SECRET (and SANDBOX_PAYMENT_SECRET with the sandbox) must be set and
 * nothing is generated into DATA_DIR; CLOCK must be `real`; SMTP_URL, DATABASE_URL, REDIS_URL and
 * PUBLIC_URL must be set; PAYMENT_PROVIDER must be `montonio` unless ALLOW_PAYMENT_SANDBOX=true.
 * The bank transfer's details are not refused but warned about (configWarnings): the site works
 * without them — they are a fallback the pay page flags as an example while unset — and refusing to
 * start over a page's text would take payments by bank link down with it (docs/decisions/0018).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvironment, CONFIG_VARIABLES, type ConfigIssue, type Environment } from './schema';

export { findRepoRoot, repoRoot } from './repo-root';
export { CONFIG_VARIABLES, ConfigSchema, type ConfigIssue } from './schema';

export interface Config {
  /** NODE_ENV: `production` has refused the development defaults; `test` behaves as `development`. */
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  /** The gateway's port: web client and /api. */
  port: number;
  /** Internal ports of the two APIs (the gateway proxies to them). */
  commandApiPort: number;
  queryApiPort: number;
  embeddedPostgresPort: number;
  embeddedRedisPort: number;
  /** Absolute. */
  dataDir: string;
  /** Null: use the embedded PostgreSQL (the launcher sets DATABASE_URL for the services). */
  databaseUrl: string | null;
  /** Null: start a local redis-server (the launcher sets REDIS_URL for the services). */
  redisUrl: string | null;
  /** EVENT_STORE and KURRENTDB_URL: the event log's engine; kurrentdbUrl is set when engine is kurrentdb. */
  eventStore: { engine: 'postgres' | 'kurrentdb'; kurrentdbUrl: string | null };
  /** BullMQ key prefix. */
  queuePrefix: string;
  jwtSecret: string;
  /** Key of the e-mail index (account lookup); rotating it makes stored e-mails unfindable. */
  emailIndexSecret: string;
  /** start: an ISO-8601 instant in UTC (toISOString). */
  clock: { mode: 'simulated' | 'real'; start: string };
  sweepIntervalMs: number;
  readYourWritesTimeoutMs: number;
  /** Heap of the activity-file reading worker, MB (docs/decisions/0046). */
  activityFileHeapMb: number;
  /** Absolute. */
  fixtureDir: string;
  importOnStart: boolean;
  /**
   * DEMO_NEXT_EDITION: the year whose seed edition the launcher plans and opens after the
   * first-start import, closing the editions before it; null (set but empty): no demo.
   */
  demoNextEdition: number | null;
  logLevel: string;
  /** PROJECTOR_PORT: the projector's health and metrics port (0: any free port). */
  projectorPort: number;
  /** PROJECTOR_READY_MAX_LAG: events a projection may be behind the log while the projector reports ready. */
  projectorReadyMaxLag: number;
  /** COMMAND_API_URLS: the gateway's command API upstreams, without trailing slashes (at least one). */
  commandApiUrls: string[];
  /** QUERY_API_URLS: the gateway's query API upstreams, without trailing slashes (at least one). */
  queryApiUrls: string[];
  /** TRUST_PROXY: Fastify's trustProxy (proxy-addr's list: loopback, linklocal, uniquelocal, addresses, CIDRs). */
  trustProxy: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT without trailing slashes; null: traces off. */
  otelEndpoint: string | null;
  /** Null: the local MailDev (embedded default). */
  smtpUrl: string | null;
  mailFrom: string;
  maildevSmtpPort: number;
  maildevWebPort: number;
  /** Without a trailing slash. */
  publicUrl: string;
  admin: { email: string; password: string } | null;
  /** Null: the news page reads the project's own stories (infra/content/news/<locale>.json). */
  strapiUrl: string | null;
  /** Null: Strapi is asked without a token (its stories are public). */
  strapiToken: string | null;
  /** The payment provider (docs/decisions/0018; @sinilill/payments createProvider). */
  payments: PaymentConfig;
  /** Strava sync (docs/decisions/0095); null unless STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET are both set. */
  strava: StravaConfig | null;
  /** STRAVA_READ_RATE_LIMIT: Strava jobs per 15 minutes across processes (docs/decisions/0096). */
  stravaReadRateLimit: number;
  /** WEB_ROOT, absolute: the built web client (index.html and its assets) the gateway serves. */
  webRoot: string;
  /** RATE_LIMIT_*: the public routes' limits per client address (docs/decisions/0108). */
  publicRateLimits: PublicRateLimitConfig;
}

/**
 * How many requests per client address the public routes take in their windows (RATE_LIMIT_*;
 * the windows are the routes' own: 10 minutes for certificate checks and unsubscriptions, 15
 * minutes for account confirmations, a minute for the rest).
 */
export interface PublicRateLimitConfig {
  certificateChecks: number;
  drawReads: number;
  shareRenders: number;
  images: number;
  newsReads: number;
  unsubscribes: number;
  accountConfirmations: number;
}

/**
 * BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN and BANK_TRANSFER_DESCRIPTION: where payers transfer the
 * fee by hand and what they write, served by GET /api/payment/banktransfer (bankTransferConfig
 * reads them; kept out of Config, which only the services that need it read).
 */
export interface BankTransferConfig {
  /** The name on the receiving account. */
  accountName: string;
  /** Its IBAN or account number, as payers should type it. */
  iban: string;
  /** The payment description with {participantId} (and {teamId}, {year}) to fill in per payer. */
  descriptionTemplate: string;
  /** True while the name or the IBAN is the made-up development default (DEVELOPMENT_BANK_TRANSFER). */
  example: boolean;
}

/**
 * The bank transfer's made-up development details: a name that says it is an example and
 * an IBAN whose check digits 00 no IBAN has (valid ones are 02–98), so no bank accepts a transfer
 * to it.
 */
export const DEVELOPMENT_BANK_TRANSFER: BankTransferConfig = {
  accountName: 'NÄIDIS / EXAMPLE – MTÜ Sinilill',
  iban: 'EE00 0000 0000 0000 0000',
  descriptionTemplate: 'Sinilill {year} ID {participantId}',
  example: true,
};

/** The Strava API application (STRAVA_*), base URLs without trailing slashes. */
export interface StravaConfig {
  clientId: string;
  clientSecret: string;
  /** STRAVA_WEBHOOK_VERIFY_TOKEN, or null: the caller derives one from JWT_SECRET. */
  webhookVerifyToken: string | null;
  /** e.g. https://www.strava.com/api/v3 */
  apiUrl: string;
  /** e.g. https://www.strava.com/oauth */
  oauthUrl: string;
}

/** PAYMENT_PROVIDER and its keys. */
export interface PaymentConfig {
  /** Null: PAYMENT_PROVIDER unset, no payments (the sandbox only when chosen). */
  provider: 'sandbox' | 'montonio' | null;
  /** Signs the sandbox's notifications (at least 32 characters); '' unless set with montonio. */
  sandboxSecret: string;
  /** Null unless the provider is montonio. */
  montonio: { accessKey: string; secretKey: string; apiUrl: string } | null;
}

/**
 * A bad configuration: the message names every bad or missing variable and what it takes, one a
 * line; `issues` holds the same as data.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(message: string, readonly issues: readonly ConfigIssue[] = []) {
    super(message);
  }
}

/** One ConfigError for all of `issues`. */
function configError(issues: readonly ConfigIssue[]): ConfigError {
  const lines = issues.map(({ variable, problem }) => `${variable} ${problem}`);
  const message = lines.length === 1 ? lines[0]! : `${lines.length} configuration problems:\n- ${lines.join('\n- ')}`;
  return new ConfigError(message, issues);
}

/**
 * Combinations the schema cannot express: montonio's keys, the admin's pair, Strava's pair.
 * @param bad variables already reported as malformed (they hold their defaults): not judged again
 */
function combinationIssues(values: Environment, bad: ReadonlySet<string>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (values.PAYMENT_PROVIDER === 'montonio' && !bad.has('PAYMENT_PROVIDER')) {
    for (const name of ['MONTONIO_ACCESS_KEY', 'MONTONIO_SECRET_KEY'] as const) {
      if (values[name] === undefined) issues.push({ variable: name, problem: 'must be set with PAYMENT_PROVIDER=montonio' });
    }
  }
  if (values.EVENT_STORE === 'kurrentdb' && values.KURRENTDB_URL === undefined && !bad.has('EVENT_STORE')) {
    issues.push({ variable: 'KURRENTDB_URL', problem: 'must be set with EVENT_STORE=kurrentdb' });
  }
  if ((values.ADMIN_EMAIL === undefined) !== (values.ADMIN_PASSWORD === undefined) && !bad.has('ADMIN_EMAIL') && !bad.has('ADMIN_PASSWORD')) {
    const missing = values.ADMIN_EMAIL === undefined ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD';
    const other = missing === 'ADMIN_EMAIL' ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL';
    issues.push({ variable: missing, problem: `must be set with ${other} (the admin needs both)` });
  }
  if ((values.STRAVA_CLIENT_ID === undefined) !== (values.STRAVA_CLIENT_SECRET === undefined) && !bad.has('STRAVA_CLIENT_ID') && !bad.has('STRAVA_CLIENT_SECRET')) {
    const missing = values.STRAVA_CLIENT_ID === undefined ? 'STRAVA_CLIENT_ID' : 'STRAVA_CLIENT_SECRET';
    const other = missing === 'STRAVA_CLIENT_ID' ? 'STRAVA_CLIENT_SECRET' : 'STRAVA_CLIENT_ID';
    issues.push({ variable: missing, problem: `must be set with ${other} (Strava sync needs both)` });
  }
  return issues.filter((issue) => !bad.has(issue.variable));
}

/**
 * The development defaults production refuses (NODE_ENV=production).
 * @param bad variables already reported as malformed (they hold their defaults): not judged again
 */
function productionIssues(values: Environment, bad: ReadonlySet<string>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const unset = (variable: string, what: string) => issues.push({ variable, problem: `must be set in production: ${what}` });
  if (values.JWT_SECRET === undefined) unset('JWT_SECRET', 'at least 32 characters (generated into DATA_DIR only in development)');
  if (values.EMAIL_INDEX_SECRET === undefined) unset('EMAIL_INDEX_SECRET', 'at least 32 characters, kept as long as the data (generated into DATA_DIR only in development)');
  if (values.PAYMENT_PROVIDER === undefined && !bad.has('PAYMENT_PROVIDER')) {
    unset('PAYMENT_PROVIDER', '"montonio" (or "sandbox" with ALLOW_PAYMENT_SANDBOX=true, a test bank: no money moves)');
  }
  if (values.PAYMENT_PROVIDER === 'sandbox' && !bad.has('PAYMENT_PROVIDER')) {
    if (values.ALLOW_PAYMENT_SANDBOX !== 'true') {
      issues.push({
        variable: 'PAYMENT_PROVIDER',
        problem: 'must be "montonio" in production, got "sandbox" (a test bank: no money moves); set ALLOW_PAYMENT_SANDBOX=true to run the sandbox anyway',
      });
    }
    if (values.SANDBOX_PAYMENT_SECRET === undefined) unset('SANDBOX_PAYMENT_SECRET', 'at least 32 characters while PAYMENT_PROVIDER is the sandbox (generated into DATA_DIR only in development)');
  }
  if (values.CLOCK !== 'real') issues.push({ variable: 'CLOCK', problem: `must be "real" in production, got "${values.CLOCK}" (the simulated clock is for demos)` });
  if (values.SMTP_URL === undefined) unset('SMTP_URL', 'an smtp:// or smtps:// URL (the local MailDev catches mail only in development)');
  if (values.DATABASE_URL === undefined) unset('DATABASE_URL', 'a postgres:// URL (the embedded PostgreSQL is for development)');
  if (values.REDIS_URL === undefined) unset('REDIS_URL', 'a redis:// or rediss:// URL (the local redis-server is for development)');
  if (values.PUBLIC_URL === undefined) unset('PUBLIC_URL', "the site's http(s) address, for links in mails and payment returns");
  return issues.filter((issue) => !bad.has(issue.variable));
}

/** Reads (and on first use creates) a random secret kept in DATA_DIR, so that tokens survive restarts. */
function generatedSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** An absolute URL without trailing slashes, or null when unset. */
function baseUrl(value: string | undefined): string | null {
  return value === undefined ? null : value.replace(/\/+$/, '');
}

/** A comma-separated URL list (the schema's urlList) as URLs without trailing slashes, or null when unset. */
function urlList(value: string | undefined): string[] | null {
  return value === undefined ? null : value.split(',').map((part) => baseUrl(part.trim())!);
}

/**
 * Builds the configuration from `env` (default: process.env). Validates every variable of
 * ConfigSchema at once, then their combinations and, with NODE_ENV=production, refuses the
 * development defaults. Only a valid development configuration generates missing secrets into
 * DATA_DIR (files jwt-secret, email-index-secret, sandbox-payment-secret, mode 0600).
 * @throws ConfigError listing every bad or missing variable with what it takes (nothing is
 *   written to DATA_DIR then); also when a generated secret file holds fewer than 32 characters.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { values, issues } = readEnvironment(env);
  const bad = new Set(issues.map((issue) => issue.variable));
  const production = values.NODE_ENV === 'production';
  issues.push(...combinationIssues(values, bad), ...(production ? productionIssues(values, bad) : []));
  if (issues.length > 0) {
    const order = (issue: ConfigIssue) => CONFIG_VARIABLES.indexOf(issue.variable);
    throw configError(issues.sort((a, b) => order(a) - order(b)));
  }

  const dataDir = resolve(values.DATA_DIR);
  const secret = (variable: string, value: string | undefined, file: string): string => {
    if (value !== undefined) return value;
    // productionIssues has refused a missing secret already; never generate one in production.
    if (production) throw configError([{ variable, problem: 'must be set in production' }]);
    const generated = generatedSecret(dataDir, file);
    if (generated.length < 32) {
      throw configError([{ variable, problem: `must be at least 32 characters long, and ${join(dataDir, file)} holds ${generated.length}` }]);
    }
    return generated;
  };
  const port = values.PORT;
  const host = values.HOST;
  return {
    nodeEnv: values.NODE_ENV,
    host,
    port,
    commandApiPort: values.COMMAND_API_PORT ?? port + 1,
    queryApiPort: values.QUERY_API_PORT ?? port + 2,
    embeddedPostgresPort: values.EMBEDDED_POSTGRES_PORT ?? port + 3,
    embeddedRedisPort: values.EMBEDDED_REDIS_PORT ?? port + 4,
    dataDir,
    databaseUrl: values.DATABASE_URL ?? null,
    redisUrl: values.REDIS_URL ?? null,
    eventStore: { engine: values.EVENT_STORE, kurrentdbUrl: values.KURRENTDB_URL ?? null },
    queuePrefix: values.BULLMQ_PREFIX,
    jwtSecret: secret('JWT_SECRET', values.JWT_SECRET, 'jwt-secret'),
    emailIndexSecret: secret('EMAIL_INDEX_SECRET', values.EMAIL_INDEX_SECRET, 'email-index-secret'),
    clock: { mode: values.CLOCK, start: new Date(values.CLOCK_START).toISOString() },
    sweepIntervalMs: values.SWEEP_INTERVAL_MS,
    readYourWritesTimeoutMs: values.READ_YOUR_WRITES_TIMEOUT_MS,
    activityFileHeapMb: values.ACTIVITY_FILE_HEAP_MB,
    fixtureDir: resolve(values.FIXTURE_DIR),
    importOnStart: values.IMPORT_ON_START === 'true',
    // Empty counts as unset everywhere else; here it is the way to turn the demo off.
    demoNextEdition: env.DEMO_NEXT_EDITION !== undefined && env.DEMO_NEXT_EDITION.trim() === '' ? null : values.DEMO_NEXT_EDITION,
    logLevel: values.LOG_LEVEL,
    projectorPort: values.PROJECTOR_PORT ?? port + 7,
    projectorReadyMaxLag: values.PROJECTOR_READY_MAX_LAG,
    commandApiUrls: urlList(values.COMMAND_API_URLS) ?? [`http://127.0.0.1:${values.COMMAND_API_PORT ?? port + 1}`],
    queryApiUrls: urlList(values.QUERY_API_URLS) ?? [`http://127.0.0.1:${values.QUERY_API_PORT ?? port + 2}`],
    trustProxy: values.TRUST_PROXY,
    otelEndpoint: baseUrl(values.OTEL_EXPORTER_OTLP_ENDPOINT),
    smtpUrl: values.SMTP_URL ?? null,
    mailFrom: values.MAIL_FROM,
    maildevSmtpPort: values.MAILDEV_SMTP_PORT ?? port + 5,
    maildevWebPort: values.MAILDEV_WEB_PORT ?? port + 6,
    publicUrl: baseUrl(values.PUBLIC_URL) ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    admin: values.ADMIN_EMAIL !== undefined && values.ADMIN_PASSWORD !== undefined ? { email: values.ADMIN_EMAIL, password: values.ADMIN_PASSWORD } : null,
    strapiUrl: baseUrl(values.STRAPI_URL),
    strapiToken: values.STRAPI_TOKEN ?? null,
    payments: values.PAYMENT_PROVIDER === 'montonio'
      ? {
        provider: 'montonio',
        sandboxSecret: values.SANDBOX_PAYMENT_SECRET ?? '',
        // combinationIssues has refused montonio without its keys.
        montonio: { accessKey: values.MONTONIO_ACCESS_KEY!, secretKey: values.MONTONIO_SECRET_KEY!, apiUrl: baseUrl(values.MONTONIO_API_URL)! },
      }
      : values.PAYMENT_PROVIDER === 'sandbox'
        ? { provider: 'sandbox', sandboxSecret: secret('SANDBOX_PAYMENT_SECRET', values.SANDBOX_PAYMENT_SECRET, 'sandbox-payment-secret'), montonio: null }
        : { provider: null, sandboxSecret: '', montonio: null },
    stravaReadRateLimit: values.STRAVA_READ_RATE_LIMIT,
    strava: values.STRAVA_CLIENT_ID !== undefined && values.STRAVA_CLIENT_SECRET !== undefined
      ? {
        clientId: values.STRAVA_CLIENT_ID,
        clientSecret: values.STRAVA_CLIENT_SECRET,
        webhookVerifyToken: values.STRAVA_WEBHOOK_VERIFY_TOKEN ?? null,
        apiUrl: baseUrl(values.STRAVA_API_URL)!,
        oauthUrl: baseUrl(values.STRAVA_OAUTH_URL)!,
      }
      : null,
    webRoot: resolve(values.WEB_ROOT),
    publicRateLimits: {
      certificateChecks: values.RATE_LIMIT_CERTIFICATE_CHECKS,
      drawReads: values.RATE_LIMIT_DRAW_READS,
      shareRenders: values.RATE_LIMIT_SHARE_RENDERS,
      images: values.RATE_LIMIT_IMAGES,
      newsReads: values.RATE_LIMIT_NEWS_READS,
      unsubscribes: values.RATE_LIMIT_UNSUBSCRIBES,
      accountConfirmations: values.RATE_LIMIT_ACCOUNT_CONFIRMATIONS,
    },
  };
}

/**
 * The manual bank transfer's details from `env` (default process.env): the
 * configured name, IBAN and description template, or DEVELOPMENT_BANK_TRANSFER's made-up name and
 * IBAN for those unset (then `example` is true). Validated by the same schema as loadConfig.
 * @throws ConfigError naming a malformed BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN or
 *   BANK_TRANSFER_DESCRIPTION (e.g. a description without {participantId}).
 */
export function bankTransferConfig(env: NodeJS.ProcessEnv = process.env): BankTransferConfig {
  const { values, issues } = readEnvironment(env);
  const bad = issues.filter((issue) => issue.variable.startsWith('BANK_'));
  if (bad.length > 0) throw configError(bad);
  return {
    accountName: values.BANK_ACCOUNT_NAME ?? DEVELOPMENT_BANK_TRANSFER.accountName,
    iban: values.BANK_ACCOUNT_IBAN ?? DEVELOPMENT_BANK_TRANSFER.iban,
    descriptionTemplate: values.BANK_TRANSFER_DESCRIPTION,
    example: values.BANK_ACCOUNT_NAME === undefined || values.BANK_ACCOUNT_IBAN === undefined,
  };
}

/**
 * What a valid configuration still should not run production with, one sentence each, for the
 * services to log at warn when they start: today the bank transfer's made-up development details
 * (BANK_ACCOUNT_NAME or BANK_ACCOUNT_IBAN unset with NODE_ENV=production). Empty in
 * development and when all is set.
 */
export function configWarnings(config: Pick<Config, 'nodeEnv'>, bankTransfer: BankTransferConfig): string[] {
  if (config.nodeEnv !== 'production' || !bankTransfer.example) return [];
  return ['BANK_ACCOUNT_NAME and BANK_ACCOUNT_IBAN should be set in production: the pay page shows made-up bank transfer details, marked as an example, until they are'];
}

/** A clock: the current instant. Simulated clocks start at a configured instant and then run. */
export interface Clock {
  now(): Date;
}

/**
 * The configured clock. `simulated` starts at clock.start when the process starts and runs at
 * real speed from there, so a demo behaves as during the event (spec: 1-30 April).
 * @param realNow the real time in ms since the epoch (tests pass their own)
 */
export function createClock(config: Pick<Config, 'clock'>, realNow: () => number = Date.now): Clock {
  if (config.clock.mode === 'real') return { now: () => new Date(realNow()) };
  const offset = Date.parse(config.clock.start) - realNow();
  return { now: () => new Date(realNow() + offset) };
}

/**
 * Requires a value the launcher is expected to have set (DATABASE_URL, REDIS_URL in services).
 * @throws ConfigError naming `name` when `value` is null
 */
export function required<T>(value: T | null, name: string): T {
  if (value === null) throw configError([{ variable: name, problem: `is not set (start the app with npm start, or set ${name})` }]);
  return value;
}
