/**
 * Typed configuration, read once from the environment, with defaults for the embedded mode
 * (`npm start` on a fresh clone needs no configuration at all).
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | PORT | where the web client and /api are served (the gateway) | 3000 |
 * | HOST | interface to listen on | 127.0.0.1 |
 * | DATA_DIR | embedded PostgreSQL's and Redis's files, the generated secret | ./.data |
 * | DATABASE_URL | an existing PostgreSQL instead of the embedded one | (embedded) |
 * | EMBEDDED_POSTGRES_PORT | the embedded PostgreSQL's port | PORT + 3 |
 * | EMBEDDED_REDIS_PORT | the local redis-server's port | PORT + 4 |
 * | REDIS_URL | an existing Redis instead of a local redis-server | (local) |
 * | BULLMQ_PREFIX | key prefix of the BullMQ queues (copies sharing one Redis differ) | sinilill |
 * | JWT_SECRET | HS256 secret for tokens; generated into DATA_DIR when unset | (generated) |
 * | EMAIL_INDEX_SECRET | key of the e-mail lookup index (HMAC); keep it as stable as the data | (generated) |
 * | CLOCK_START | simulated clock: ISO instant the app's clock starts at, then runs | 2025-04-30T12:00:00+03:00 in embedded mode; real time when CLOCK=real |
 * | CLOCK | `simulated` or `real` | simulated |
 * | SWEEP_INTERVAL_MS | projectors' periodic catch-up (covers a lost wake-up) | 5000 |
 * | READ_YOUR_WRITES_TIMEOUT_MS | how long a query waits for x-min-position | 3000 |
 * | FIXTURE_DIR | the 2025 export imported on first start | infra/seed/edition-2025 |
 * | IMPORT_ON_START | import the fixture on first start (`false` to skip) | true |
 * | LOG_LEVEL | pino level for the services | info |
 * | SMTP_URL | real SMTP (smtp://… or smtps://…) for outgoing mail | (local MailDev) |
 * | MAIL_FROM | sender of outgoing mail | Sinilill <info@sinilill.ee> |
 * | MAILDEV_SMTP_PORT, MAILDEV_WEB_PORT | the local MailDev's SMTP port and inbox page | PORT + 5, PORT + 6 |
 * | PUBLIC_URL | the site's address, for links in mails | http://HOST:PORT |
 * | ADMIN_EMAIL, ADMIN_PASSWORD | create or update an approved admin at start | (none) |
 * | STRAPI_URL | Strapi 5 the news page reads its stories from (http(s)://host[:port]) | (none: infra/content/news) |
 * | STRAPI_TOKEN | API token sent to Strapi as `Authorization: Bearer …` (read-only token) | (none) |
 * | PAYMENT_PROVIDER | `sandbox` (the local test bank) or `montonio` (Montonio's Stargate API) | sandbox |
 * | SANDBOX_PAYMENT_SECRET | HS256 secret of the sandbox's notifications; generated into DATA_DIR when unset | (generated) |
 * | MONTONIO_ACCESS_KEY, MONTONIO_SECRET_KEY | the Montonio store's API keys; required with PAYMENT_PROVIDER=montonio | (none) |
 * | MONTONIO_API_URL | Montonio's API base URL | https://sandbox-stargate.montonio.com/api |
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (where package.json with the workspaces is). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  host: string;
  /** The gateway's port: web client and /api. */
  port: number;
  /** Internal ports of the two APIs (the gateway proxies to them). */
  commandApiPort: number;
  queryApiPort: number;
  embeddedPostgresPort: number;
  embeddedRedisPort: number;
  dataDir: string;
  /** Null: use the embedded PostgreSQL (the launcher sets DATABASE_URL for the services). */
  databaseUrl: string | null;
  /** Null: start a local redis-server (the launcher sets REDIS_URL for the services). */
  redisUrl: string | null;
  /** BullMQ key prefix. */
  queuePrefix: string;
  jwtSecret: string;
  /** Key of the e-mail index (account lookup); rotating it makes stored e-mails unfindable. */
  emailIndexSecret: string;
  clock: { mode: 'simulated' | 'real'; start: string };
  sweepIntervalMs: number;
  readYourWritesTimeoutMs: number;
  fixtureDir: string;
  importOnStart: boolean;
  logLevel: string;
  /** Null: the local MailDev (embedded default). */
  smtpUrl: string | null;
  mailFrom: string;
  maildevSmtpPort: number;
  maildevWebPort: number;
  publicUrl: string;
  admin: { email: string; password: string } | null;
  /** Null: the news page reads the project's own stories (infra/content/news/<locale>.json). */
  strapiUrl: string | null;
  /** Null: Strapi is asked without a token (its stories are public). */
  strapiToken: string | null;
  /** The payment provider (issue 7, docs/architecture.md D18; @sinilill/payments createProvider). */
  payments: PaymentConfig;
}

/** PAYMENT_PROVIDER and its keys. */
export interface PaymentConfig {
  provider: 'sandbox' | 'montonio';
  /** Signs the sandbox's notifications (at least 32 characters). */
  sandboxSecret: string;
  /** Null unless the provider is montonio. */
  montonio: { accessKey: string; secretKey: string; apiUrl: string } | null;
}

/** A bad configuration value: names the variable and what it takes. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = 65535 * 1000): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Reads (and on first use creates) a random secret kept in DATA_DIR, so that tokens survive restarts. */
function generatedSecret(dataDir: string, name = 'jwt-secret'): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** An absolute http(s) URL without a trailing slash, or null when unset. */
function baseUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/**
 * PAYMENT_PROVIDER with its keys. The sandbox's secret is generated into DATA_DIR only when the
 * sandbox is the provider (a Montonio site needs none).
 * @throws ConfigError for an unknown provider, a short secret, or montonio without its keys.
 */
function paymentConfig(env: NodeJS.ProcessEnv, dataDir: string): PaymentConfig {
  const provider = env.PAYMENT_PROVIDER?.trim() || 'sandbox';
  if (provider !== 'sandbox' && provider !== 'montonio') {
    throw new ConfigError(`PAYMENT_PROVIDER must be "sandbox" or "montonio", got "${provider}"`);
  }
  if (provider === 'montonio') {
    const accessKey = env.MONTONIO_ACCESS_KEY?.trim();
    const secretKey = env.MONTONIO_SECRET_KEY?.trim();
    if (!accessKey || !secretKey) throw new ConfigError('PAYMENT_PROVIDER=montonio needs MONTONIO_ACCESS_KEY and MONTONIO_SECRET_KEY');
    const apiUrl = baseUrl(env, 'MONTONIO_API_URL') ?? 'https://sandbox-stargate.montonio.com/api';
    return { provider, sandboxSecret: env.SANDBOX_PAYMENT_SECRET || '', montonio: { accessKey, secretKey, apiUrl } };
  }
  const sandboxSecret = env.SANDBOX_PAYMENT_SECRET || generatedSecret(dataDir, 'sandbox-payment-secret');
  if (sandboxSecret.length < 32) throw new ConfigError('SANDBOX_PAYMENT_SECRET must be at least 32 characters long');
  return { provider, sandboxSecret, montonio: null };
}

/**
 * Builds the configuration from `env` (default: process.env).
 * @throws ConfigError naming the variable when a value is malformed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 3000, 1, 65535);
  const dataDir = resolve(env.DATA_DIR || join(repoRoot, '.data'));
  const clockMode = (env.CLOCK || 'simulated') as Config['clock']['mode'];
  if (clockMode !== 'simulated' && clockMode !== 'real') {
    throw new ConfigError(`CLOCK must be "simulated" or "real", got "${env.CLOCK}"`);
  }
  const clockStart = env.CLOCK_START || '2025-04-30T12:00:00+03:00';
  if (Number.isNaN(Date.parse(clockStart))) {
    throw new ConfigError(`CLOCK_START must be an ISO-8601 instant, got "${clockStart}"`);
  }
  const jwtSecret = env.JWT_SECRET || generatedSecret(dataDir);
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  const emailIndexSecret = env.EMAIL_INDEX_SECRET || generatedSecret(dataDir, 'email-index-secret');
  if (emailIndexSecret.length < 32) throw new ConfigError('EMAIL_INDEX_SECRET must be at least 32 characters long');
  return {
    host: env.HOST || '127.0.0.1',
    port,
    commandApiPort: int(env, 'COMMAND_API_PORT', port + 1, 1, 65535),
    queryApiPort: int(env, 'QUERY_API_PORT', port + 2, 1, 65535),
    embeddedPostgresPort: int(env, 'EMBEDDED_POSTGRES_PORT', port + 3, 1, 65535),
    embeddedRedisPort: int(env, 'EMBEDDED_REDIS_PORT', port + 4, 1, 65535),
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    queuePrefix: env.BULLMQ_PREFIX || 'sinilill',
    jwtSecret,
    emailIndexSecret,
    clock: { mode: clockMode, start: new Date(clockStart).toISOString() },
    sweepIntervalMs: int(env, 'SWEEP_INTERVAL_MS', 5000, 100),
    readYourWritesTimeoutMs: int(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 3000, 0),
    fixtureDir: resolve(env.FIXTURE_DIR || join(repoRoot, 'infra/seed/edition-2025')),
    importOnStart: (env.IMPORT_ON_START ?? 'true') !== 'false',
    logLevel: env.LOG_LEVEL || 'info',
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Sinilill <info@sinilill.ee>',
    maildevSmtpPort: int(env, 'MAILDEV_SMTP_PORT', port + 5, 1, 65535),
    maildevWebPort: int(env, 'MAILDEV_WEB_PORT', port + 6, 1, 65535),
    publicUrl: (env.PUBLIC_URL || `http://${env.HOST && env.HOST !== '0.0.0.0' ? env.HOST : '127.0.0.1'}:${port}`).replace(/\/$/, ''),
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    strapiUrl: baseUrl(env, 'STRAPI_URL'),
    strapiToken: env.STRAPI_TOKEN?.trim() || null,
    payments: paymentConfig(env, dataDir),
  };
}

/** A clock: the current instant. Simulated clocks start at a configured instant and then run. */
export interface Clock {
  now(): Date;
}

/**
 * The configured clock. `simulated` starts at clock.start when the process starts and runs at
 * real speed from there, so a demo behaves as during the event (spec: 1-30 April).
 */
export function createClock(config: Pick<Config, 'clock'>, realNow: () => number = Date.now): Clock {
  if (config.clock.mode === 'real') return { now: () => new Date(realNow()) };
  const offset = Date.parse(config.clock.start) - realNow();
  return { now: () => new Date(realNow() + offset) };
}

/** Requires a value the launcher is expected to have set (DATABASE_URL, REDIS_URL in services). */
export function required<T>(value: T | null, name: string): T {
  if (value === null) throw new ConfigError(`${name} is not set (start the app with npm start, or set ${name})`);
  return value;
}
