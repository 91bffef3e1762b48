/**
 * The schema of the environment: every variable the application reads, with its type, range or
 * format, description and (static) default, as one TypeBox object. Defaults that follow from other
 * variables (PORT + 1, …) or from files (generated secrets) are computed by loadConfig; their
 * descriptions say so. Test-only variables (TEST_DATABASE_URL, CHROMIUM_PATH, …) are not here.
 */
import { join } from 'node:path';
import Type from 'typebox';
import Value from 'typebox/value';
import { repoRoot } from './repo-root';

/** What one variable takes, in words, for error messages ("an integer 1–65535"). */
interface Expects {
  expects: string;
}

/** `"a", "b" or "c"` */
function alternatives(values: readonly string[]): string {
  const quoted = values.map((value) => `"${value}"`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/** A whole number from `minimum` to `maximum` (the environment's digits are converted first). */
function integer(minimum: number, maximum: number, options: { description: string; default?: number }) {
  return Type.Integer({ minimum, maximum, expects: `an integer ${minimum}–${maximum}`, ...options });
}

/** A TCP port whose default follows from PORT (description says how). */
function derivedPort(description: string) {
  return Type.Optional(integer(1, 65535, { description }));
}

/** One of a few words. */
function oneOf<const Values extends string[]>(values: readonly [...Values], options: { description: string; default: Values[number] }) {
  return Type.Enum(values, { expects: alternatives(values), ...options });
}

/** `true` or `false`. */
function flag(options: { description: string; default: 'true' | 'false' }) {
  return oneOf(['true', 'false'], options);
}

/** Free text (a host name, a path, a sender). */
function text(options: { description: string; default: string }) {
  return Type.String({ minLength: 1, expects: 'text', ...options });
}

/** Free text without a default. writeOnly (JSON Schema): a credential, never echoed in errors. */
function optionalText(description: string, options: { writeOnly?: boolean } = {}) {
  return Type.Optional(Type.String({ minLength: 1, expects: 'text', description, ...options }));
}

/** An absolute URL with one of `schemes` (e.g. ['http', 'https']). */
function url(schemes: readonly string[], options: { description: string; default?: string }) {
  return Type.String({
    format: 'url',
    pattern: `^(?:${schemes.join('|')})://`,
    expects: `a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`,
    ...options,
  });
}

/** A secret of at least 32 characters; without it, development generates one into DATA_DIR. */
function secret(description: string) {
  return Type.Optional(Type.String({ minLength: 32, writeOnly: true, expects: 'at least 32 characters long', description }));
}

const HTTP = ['http', 'https'] as const;

/** One or more http(s) URLs, comma-separated (spaces around the commas allowed). */
function urlList(description: string) {
  const one = 'https?://[^\\s,]+';
  return Type.String({ pattern: `^\\s*${one}(\\s*,\\s*${one})*\\s*$`, expects: 'one or more http:// or https:// URLs, comma-separated', description });
}

/** One piece of a bank transfer description template: a character that is no brace, or a known placeholder. */
const BANK_TEMPLATE_TEXT = '(?:[^{}]|\\{(?:participantId|teamId|year)\\})';

/** Every environment variable of the application (the names are the keys). */
export const ConfigSchema = Type.Object({
  NODE_ENV: oneOf(['development', 'production', 'test'], {
    description: 'production refuses the development defaults (generated secrets, simulated clock, MailDev, payment sandbox, embedded servers)',
    default: 'development',
  }),
  PORT: integer(1, 65535, { description: 'where the web client and /api are served (the gateway)', default: 3000 }),
  HOST: text({ description: 'interface to listen on', default: '127.0.0.1' }),
  COMMAND_API_PORT: derivedPort('internal port of the command API; default PORT + 1'),
  QUERY_API_PORT: derivedPort('internal port of the query API; default PORT + 2'),
  PUBLIC_URL: Type.Optional(url(HTTP, { description: "the site's address, for links in mails and payment returns; default http://HOST:PORT" })),
  WEB_ROOT: text({ description: "the built web client the gateway serves", default: join(repoRoot, 'web/dist') }),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { description: 'pino level for the services', default: 'info' }),
  PROJECTOR_PORT: Type.Optional(integer(0, 65535, { description: "the projector's own port for /health/live, /health/ready and /metrics (0: any free port); default PORT + 7" })),
  PROJECTOR_READY_MAX_LAG: integer(0, 1_000_000_000, { description: "the projector is ready while every projection's checkpoint is at most this many events behind the log", default: 10_000 }),
  COMMAND_API_URLS: Type.Optional(urlList('the command APIs the gateway balances over, comma-separated; default http://127.0.0.1:COMMAND_API_PORT')),
  QUERY_API_URLS: Type.Optional(urlList('the query APIs the gateway balances over, comma-separated; default http://127.0.0.1:QUERY_API_PORT')),
  TRUST_PROXY: text({
    description: "the proxies whose X-Forwarded-For the APIs and the gateway believe (rate limits count the client's address): loopback, linklocal, uniquelocal, IP addresses or CIDR ranges, comma-separated",
    default: 'loopback',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(url(HTTP, { description: 'OpenTelemetry collector (OTLP over HTTP) the services send traces to; unset: no traces' })),

  DATA_DIR: text({ description: "embedded PostgreSQL's and Redis's files, MailDev's mail, the generated secrets", default: join(repoRoot, '.data') }),
  DATABASE_URL: Type.Optional(url(['postgres', 'postgresql'], { description: 'an existing PostgreSQL instead of the embedded one' })),
  EMBEDDED_POSTGRES_PORT: derivedPort("the embedded PostgreSQL's port; default PORT + 3"),
  EVENT_STORE: oneOf(['postgres', 'kurrentdb'], {
    description: 'where the event log lives: postgres (DATABASE_URL, the default) or kurrentdb (KURRENTDB_URL; the accounts, subject keys and read models stay in PostgreSQL)',
    default: 'postgres',
  }),
  KURRENTDB_URL: Type.Optional(url(['kurrentdb', 'kurrent', 'esdb', 'kdb', 'kurrentdb+discover', 'esdb+discover'], { description: 'the KurrentDB connection string (kurrentdb://host:2113?tls=false); required with EVENT_STORE=kurrentdb' })),
  REDIS_URL: Type.Optional(url(['redis', 'rediss'], { description: 'an existing Redis instead of a local redis-server' })),
  EMBEDDED_REDIS_PORT: derivedPort("the local redis-server's port; default PORT + 4"),
  BULLMQ_PREFIX: text({ description: 'key prefix of the BullMQ queues (copies sharing one Redis differ)', default: 'sinilill' }),

  JWT_SECRET: secret('HS256 secret for tokens; generated into DATA_DIR when unset (not in production)'),
  EMAIL_INDEX_SECRET: secret('key of the e-mail lookup index (HMAC); keep it as stable as the data; generated into DATA_DIR when unset (not in production)'),

  CLOCK: oneOf(['simulated', 'real'], { description: "the app's clock: simulated starts at CLOCK_START and runs; real is the real time", default: 'simulated' }),
  CLOCK_START: Type.String({
    format: 'date-time',
    expects: 'an ISO-8601 instant with an offset, e.g. 2026-02-15T12:00:00+02:00',
    description: 'where the simulated clock starts (ignored when CLOCK=real)',
    default: '2026-02-15T12:00:00+02:00',
  }),
  SWEEP_INTERVAL_MS: integer(100, 3_600_000, { description: "projectors' periodic catch-up in ms (covers a lost wake-up)", default: 5000 }),
  READ_YOUR_WRITES_TIMEOUT_MS: integer(0, 3_600_000, { description: 'how long a query waits for x-min-position, in ms', default: 3000 }),
  ACTIVITY_FILE_HEAP_MB: integer(64, 8192, { description: 'heap of the child process that reads one activity file, in MB (a GPX or TCX needs about 70 times its size)', default: 512 }),

  FIXTURE_DIR: text({ description: 'the 2025 export imported on first start', default: join(repoRoot, 'infra/seed/edition-2025') }),
  IMPORT_ON_START: flag({ description: 'import FIXTURE_DIR on first start (an empty event log)', default: 'true' }),
  // Set but empty means "no demo" (loadConfig), unlike the other variables, where empty means unset.
  DEMO_NEXT_EDITION: integer(2000, 9999, {
    description: "the launcher's demo after the first-start import: editions before this year are closed and the seed edition of this year is planned and opened; set but empty: no demo",
    default: 2026,
  }),

  SMTP_URL: Type.Optional(url(['smtp', 'smtps'], { description: 'real SMTP for outgoing mail; unset: the local MailDev (not in production)' })),
  MAIL_FROM: text({ description: 'sender of outgoing mail', default: 'Sinilill <info@sinilill.ee>' }),
  MAILDEV_SMTP_PORT: derivedPort("the local MailDev's SMTP port; default PORT + 5"),
  MAILDEV_WEB_PORT: derivedPort("the local MailDev's inbox page; default PORT + 6"),

  ADMIN_EMAIL: Type.Optional(Type.String({ format: 'email', expects: 'an e-mail address', description: 'with ADMIN_PASSWORD: create or update an approved admin at start' })),
  ADMIN_PASSWORD: optionalText('with ADMIN_EMAIL: the admin\'s password', { writeOnly: true }),

  STRAPI_URL: Type.Optional(url(HTTP, { description: 'Strapi 5 the news page reads its stories from; unset: infra/content/news' })),
  STRAPI_TOKEN: optionalText('API token sent to Strapi as Authorization: Bearer … (read-only token)', { writeOnly: true }),

  // No default: the sandbox, where the payer picks the outcome, runs only when chosen.
  // `npm start` chooses it for development (services/cli start.ts); unset, payments are unavailable.
  PAYMENT_PROVIDER: Type.Optional(Type.Enum(['sandbox', 'montonio'], {
    expects: alternatives(['sandbox', 'montonio']),
    description: "sandbox (the local test bank; in production only with ALLOW_PAYMENT_SANDBOX=true) or montonio (Montonio's Stargate API); unset: no payments (npm start sets sandbox in development)",
  })),
  ALLOW_PAYMENT_SANDBOX: flag({ description: 'true lets production run the payment sandbox (a test bank: no money moves)', default: 'false' }),
  SANDBOX_PAYMENT_SECRET: secret("HS256 secret of the sandbox's notifications; generated into DATA_DIR when unset (not in production)"),
  MONTONIO_ACCESS_KEY: optionalText("the Montonio store's access key; required with PAYMENT_PROVIDER=montonio"),
  MONTONIO_SECRET_KEY: optionalText("the Montonio store's secret key; required with PAYMENT_PROVIDER=montonio", { writeOnly: true }),
  MONTONIO_API_URL: url(HTTP, { description: "Montonio's API base URL (production: https://stargate.montonio.com/api)", default: 'https://sandbox-stargate.montonio.com/api' }),

  // Strava sync (docs/decisions/0095): available iff the app's client id and secret are set; unset,
  // the account page shows no connect button and the Strava routes answer STRAVA_NOT_CONFIGURED.
  STRAVA_CLIENT_ID: Type.Optional(Type.String({ pattern: '^[0-9]+$', expects: 'the numeric Client ID of the Strava API application', description: "the Strava API application's Client ID (strava.com/settings/api); with STRAVA_CLIENT_SECRET: Strava sync on" })),
  STRAVA_CLIENT_SECRET: optionalText("the Strava API application's Client Secret; with STRAVA_CLIENT_ID: Strava sync on", { writeOnly: true }),
  STRAVA_WEBHOOK_VERIFY_TOKEN: optionalText('the verify token of the webhook subscription (hub.verify_token); unset: derived from JWT_SECRET', { writeOnly: true }),
  STRAVA_READ_RATE_LIMIT: integer(1, 1_000_000, {
    description: "the Strava application's read limit per 15 minutes: the Strava queue's cap across processes (Strava's default 100; raise it when Strava raises yours)",
    default: 100,
  }),
  STRAVA_API_URL: url(HTTP, { description: "Strava's API base URL (a stand-in's in tests)", default: 'https://www.strava.com/api/v3' }),
  STRAVA_OAUTH_URL: url(HTTP, { description: "Strava's OAuth base URL (authorize, token, deauthorize)", default: 'https://www.strava.com/oauth' }),

  // The manual bank transfer of spec §2 "Payment". Unset: made-up development
  // details (DEVELOPMENT_BANK_TRANSFER), served flagged as an example; production warns, not refuses.
  BANK_ACCOUNT_NAME: Type.Optional(Type.String({
    minLength: 1, maxLength: 70, expects: 'text of at most 70 characters',
    description: 'the name on the account that receives fees by bank transfer; unset: a made-up example (production warns)',
  })),
  BANK_ACCOUNT_IBAN: Type.Optional(Type.String({
    minLength: 5, maxLength: 42, pattern: '^[A-Za-z0-9][A-Za-z0-9 ]*$', expects: 'an IBAN or account number (letters, digits and spaces, 5–42)',
    description: 'the IBAN (or account number) of that account, as payers should type it; unset: a made-up example (production warns)',
  })),
  BANK_TRANSFER_DESCRIPTION: Type.String({
    maxLength: 140,
    pattern: `^${BANK_TEMPLATE_TEXT}*\\{participantId\\}${BANK_TEMPLATE_TEXT}*$`,
    expects: 'a payment description of at most 140 characters holding {participantId} (also {teamId}, {year}; no other braces)',
    description: "the payment description payers write, personalised per payer: {participantId}, {teamId}, {year}",
    default: 'Sinilill {year} ID {participantId}',
  }),

  // Rate limits of the public routes that cost work or could be guessed at, per client address
  // (docs/decisions/0108): how many in each route's window, counted across processes in Redis.
  RATE_LIMIT_CERTIFICATE_CHECKS: integer(1, 1_000_000, {
    description: 'certificate verifications (GET /api/certificates/{code}) per client address in 10 minutes',
    default: 60,
  }),
  RATE_LIMIT_DRAW_READS: integer(1, 1_000_000, {
    description: 'reads of the prize draw (GET /api/draw: it folds the log) per client address in a minute',
    default: 60,
  }),
  RATE_LIMIT_SHARE_RENDERS: integer(1, 1_000_000, {
    description: "share images and pages (GET /api/team/{id}/share.png, /api/share/team/{id}) per client address in a minute",
    default: 60,
  }),
  RATE_LIMIT_IMAGES: integer(1, 1_000_000, {
    description: 'stored images (GET /api/images/{name}: team icons, many on one page) per client address in a minute',
    default: 1200,
  }),
  RATE_LIMIT_NEWS_READS: integer(1, 1_000_000, {
    description: 'news reads (POST /api/strapi/story: may ask Strapi) per client address in a minute',
    default: 60,
  }),
  RATE_LIMIT_UNSUBSCRIBES: integer(1, 1_000_000, {
    description: 'newsletter unsubscriptions (POST /api/unsubscribe) per client address in 10 minutes',
    default: 20,
  }),
  RATE_LIMIT_ACCOUNT_CONFIRMATIONS: integer(1, 1_000_000, {
    description: 'account confirmations (POST /api/confirmaccount) per client address in 15 minutes',
    default: 20,
  }),
});

/** The validated environment: defaults applied, digits converted to numbers. */
export type Environment = Type.Static<typeof ConfigSchema>;

/** The name of every variable in the schema, in the schema's order. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ConfigSchema.properties);

/** One bad or missing variable: `${variable} ${problem}` reads as a sentence. */
export interface ConfigIssue {
  variable: string;
  problem: string;
}

/** The result of reading the environment: every issue, and the values to go on with. */
export interface ReadEnvironment {
  /** Valid values and defaults; a variable with an issue holds its default (or is absent). */
  values: Environment;
  /** One per bad variable, in the schema's order; empty when the environment is valid. */
  issues: ConfigIssue[];
}

type PropertySchema = Expects & { writeOnly?: boolean };

function property(name: string): PropertySchema {
  return (ConfigSchema.properties as Record<string, unknown>)[name] as PropertySchema;
}

/** The environment's values for the schema's variables: trimmed, empty ones left out, integers as numbers. */
function candidate(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const raw = env[name]?.trim();
    if (!raw) continue; // unset or empty: the default applies
    // Only plain digits become numbers: "3000.5" or "3e3" stay strings and fail the integer check.
    values[name] = Type.IsInteger(schema) && /^[+-]?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return values;
}

/**
 * Validates the schema's variables of `env` all at once. Empty and whitespace-only values count as
 * unset; values are trimmed. Does not judge combinations (montonio's keys, production's refusals):
 * loadConfig does.
 * @returns the values to go on with and one issue per bad variable ("PORT must be an integer
 *   1–65535, got "abc""), in the schema's order; a credential's value is never repeated, only its length.
 */
export function readEnvironment(env: NodeJS.ProcessEnv): ReadEnvironment {
  const values = candidate(env);
  const issues: ConfigIssue[] = [];
  // Variable by variable rather than Value.Errors on the object: that stops at TypeBox's
  // maxErrors setting (8), and every bad variable must be reported.
  for (const name of CONFIG_VARIABLES) {
    if (values[name] === undefined || Value.Check(property(name), values[name])) continue;
    const raw = env[name]?.trim() ?? '';
    const { expects, writeOnly } = property(name);
    issues.push({ variable: name, problem: `must be ${expects}, got ${writeOnly ? `${raw.length} characters` : `"${raw}"`}` });
    // The bad ones fall back to their defaults, so that the checks of combinations can still run.
    delete values[name];
  }
  Value.Default(ConfigSchema, values);
  if (!Value.Check(ConfigSchema, values)) {
    throw new Error(`ConfigSchema's defaults do not satisfy it: ${JSON.stringify(Value.Errors(ConfigSchema, values))}`);
  }
  return { values, issues };
}
