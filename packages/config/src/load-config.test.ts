/**
 * loadConfig: the whole environment judged at once, development's defaults, production's
 * refusals.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, repoRoot, required } from './index';

const dataDir = () => mkdtempSync(join(tmpdir(), 'sinilill-config-'));
const SECRET = 'x'.repeat(40);

/** The ConfigError `load` throws (fails the test when it throws none or another error). */
function configError(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, loadConfig returned');
}

/** A production environment with nothing left to the development defaults. */
const production = (dir: string): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  DATA_DIR: dir,
  JWT_SECRET: SECRET,
  EMAIL_INDEX_SECRET: 'e'.repeat(40),
  CLOCK: 'real',
  SMTP_URL: 'smtps://user:pass@smtp.example.ee:465',
  DATABASE_URL: 'postgres://sinilill:pw@db.internal:5432/sinilill',
  REDIS_URL: 'redis://redis.internal:6379',
  PUBLIC_URL: 'https://sinilill.example.ee/',
  PAYMENT_PROVIDER: 'montonio',
  MONTONIO_ACCESS_KEY: 'access',
  MONTONIO_SECRET_KEY: 'secret',
});

describe('an environment with several bad values', () => {
  it('gives one ConfigError that names each of them with what it takes, in the schema\'s order', () => {
    // given
    const dir = dataDir();
    const env = {
      DATA_DIR: dir, PORT: 'abc', JWT_SECRET: 'too-short-secret', CLOCK: 'fast', SWEEP_INTERVAL_MS: '2.5',
      PUBLIC_URL: 'ftp://example.ee', CLOCK_START: '30.04.2025', IMPORT_ON_START: 'yes', LOG_LEVEL: 'verbose',
      REDIS_URL: 'localhost:6379', EMBEDDED_POSTGRES_PORT: '70000',
    };
    // when
    const error = configError(() => loadConfig(env));
    // then
    expect(error.issues.map((issue) => issue.variable)).toEqual([
      'PORT', 'PUBLIC_URL', 'LOG_LEVEL', 'EMBEDDED_POSTGRES_PORT', 'REDIS_URL', 'JWT_SECRET', 'CLOCK', 'CLOCK_START',
      'SWEEP_INTERVAL_MS', 'IMPORT_ON_START',
    ]);
    expect(error.message).toContain('PORT must be an integer 1–65535, got "abc"');
    expect(error.message).toContain('EMBEDDED_POSTGRES_PORT must be an integer 1–65535, got "70000"');
    expect(error.message).toContain('JWT_SECRET must be at least 32 characters long, got 16 characters');
    expect(error.message).toContain('CLOCK must be "simulated" or "real", got "fast"');
    expect(error.message).toContain('SWEEP_INTERVAL_MS must be an integer 100–3600000, got "2.5"');
    expect(error.message).toContain('PUBLIC_URL must be a URL starting with http:// or https://, got "ftp://example.ee"');
    expect(error.message).toContain('REDIS_URL must be a URL starting with redis:// or rediss://, got "localhost:6379"');
    expect(error.message).toContain('IMPORT_ON_START must be "true" or "false", got "yes"');
    expect(error.message).toContain('CLOCK_START must be an ISO-8601 instant');
    expect(error.message.split('\n')).toHaveLength(1 + 10);
    // and a credential is not repeated, and nothing was generated
    expect(error.message).not.toContain('too-short-secret');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('also names the combinations that do not hold', () => {
    const error = configError(() => loadConfig({
      DATA_DIR: dataDir(), PORT: '0', PAYMENT_PROVIDER: 'montonio', MONTONIO_ACCESS_KEY: 'a', ADMIN_EMAIL: 'admin@example.ee',
    }));
    expect(error.issues.map((issue) => issue.variable)).toEqual(['PORT', 'ADMIN_PASSWORD', 'MONTONIO_SECRET_KEY']);
  });

  it('with a single bad value gives a one-line message', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), QUERY_API_PORT: '3000.5' })).toThrow(/^QUERY_API_PORT must be an integer 1–65535, got "3000.5"$/);
  });
});

describe('development (NODE_ENV unset)', () => {
  it('with nothing set has the embedded defaults: ports from PORT 3000, simulated clock, secrets generated into DATA_DIR', () => {
    // given an empty environment (empty strings count as unset, as the e2e launcher passes them)
    const dir = dataDir();
    // when
    const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '', HOST: '  ' });
    // then
    const file = (name: string) => readFileSync(join(dir, name), 'utf8').trim();
    expect(config).toEqual({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      commandApiPort: 3001,
      queryApiPort: 3002,
      embeddedPostgresPort: 3003,
      embeddedRedisPort: 3004,
      dataDir: dir,
      databaseUrl: null,
      redisUrl: null,
      eventStore: { engine: 'postgres', kurrentdbUrl: null },
      queuePrefix: 'sinilill',
      jwtSecret: file('jwt-secret'),
      emailIndexSecret: file('email-index-secret'),
      clock: { mode: 'simulated', start: '2026-02-15T10:00:00.000Z' },
      sweepIntervalMs: 5000,
      readYourWritesTimeoutMs: 3000,
      activityFileHeapMb: 512,
      fixtureDir: join(repoRoot, 'infra/seed/edition-2025'),
      importOnStart: true,
      demoNextEdition: 2026,
      logLevel: 'info',
      projectorPort: 3007,
      projectorReadyMaxLag: 10_000,
      commandApiUrls: ['http://127.0.0.1:3001'],
      queryApiUrls: ['http://127.0.0.1:3002'],
      trustProxy: 'loopback',
      otelEndpoint: null,
      smtpUrl: null,
      mailFrom: 'Sinilill <info@sinilill.ee>',
      maildevSmtpPort: 3005,
      maildevWebPort: 3006,
      publicUrl: 'http://127.0.0.1:3000',
      admin: null,
      strapiUrl: null,
      strapiToken: null,
      // No provider unless chosen (the sandbox only when explicitly chosen).
      payments: { provider: null, sandboxSecret: '', montonio: null },
      strava: null,
      stravaReadRateLimit: 100,
      webRoot: join(repoRoot, 'web/dist'),
      publicRateLimits: { certificateChecks: 60, drawReads: 60, shareRenders: 60, images: 1200, newsReads: 60, unsubscribes: 20, accountConfirmations: 20 },
    });
    expect(config.jwtSecret).toHaveLength(64);
    expect(new Set([config.jwtSecret, config.emailIndexSecret]).size).toBe(2);
    // and a second start reads the same secrets
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('derives the other ports and the public URL from PORT and HOST', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: '4000', HOST: '0.0.0.0' });
    expect([config.commandApiPort, config.queryApiPort, config.embeddedPostgresPort, config.embeddedRedisPort, config.maildevSmtpPort, config.maildevWebPort])
      .toEqual([4001, 4002, 4003, 4004, 4005, 4006]);
    expect(config.publicUrl).toBe('http://127.0.0.1:4000');
    expect([config.projectorPort, config.commandApiUrls, config.queryApiUrls]).toEqual([4007, ['http://127.0.0.1:4001'], ['http://127.0.0.1:4002']]);
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '4000', HOST: 'sinilill.local' }).publicUrl).toBe('http://sinilill.local:4000');
  });

  it('takes the values set, trimmed, with numbers, flags and paths converted', () => {
    const dir = dataDir();
    const config = loadConfig({
      DATA_DIR: dir, COMMAND_API_PORT: ' 5001 ', QUERY_API_PORT: '5002', IMPORT_ON_START: 'false', CLOCK: 'real',
      CLOCK_START: '2025-04-01T00:00:00Z', READ_YOUR_WRITES_TIMEOUT_MS: '0', LOG_LEVEL: 'debug', WEB_ROOT: 'somewhere/dist',
      PUBLIC_URL: 'https://sinilill.ee//', STRAPI_URL: 'https://cms.example.ee/', STRAPI_TOKEN: 'token',
      ADMIN_EMAIL: 'admin@example.ee', ADMIN_PASSWORD: 'pw', JWT_SECRET: SECRET,
    });
    expect(config).toMatchObject({
      commandApiPort: 5001, queryApiPort: 5002, importOnStart: false, clock: { mode: 'real', start: '2025-04-01T00:00:00.000Z' },
      readYourWritesTimeoutMs: 0, logLevel: 'debug', webRoot: join(process.cwd(), 'somewhere/dist'), publicUrl: 'https://sinilill.ee',
      strapiUrl: 'https://cms.example.ee', strapiToken: 'token', admin: { email: 'admin@example.ee', password: 'pw' }, jwtSecret: SECRET,
    });
    expect(readdirSync(dir)).not.toContain('jwt-secret');
  });

  it("takes DEMO_NEXT_EDITION's year, turns the demo off when it is set but empty, and refuses a year that is no year", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_NEXT_EDITION: '2027' }).demoNextEdition).toBe(2027);
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_NEXT_EDITION: '' }).demoNextEdition).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_NEXT_EDITION: '  ' }).demoNextEdition).toBeNull();
    expect(() => loadConfig({ DATA_DIR: dataDir(), DEMO_NEXT_EDITION: 'next' })).toThrow('DEMO_NEXT_EDITION must be an integer 2000–9999, got "next"');
  });

  it('behaves the same with NODE_ENV=test (vitest sets it)', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir() });
    expect(config.nodeEnv).toBe('test');
    expect(config.clock.mode).toBe('simulated');
    expect(config.databaseUrl).toBeNull();
  });

  it('refuses a generated secret file that was cut short', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'jwt-secret'), 'short\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/JWT_SECRET must be at least 32 characters long/);
  });
});

describe('production (NODE_ENV=production)', () => {
  it('with nothing set lists every refused development default at once', () => {
    // given
    const dir = dataDir();
    // when
    const error = configError(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir }));
    // then
    expect(error.issues.map((issue) => issue.variable)).toEqual([
      'PUBLIC_URL', 'DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'EMAIL_INDEX_SECRET', 'CLOCK', 'SMTP_URL', 'PAYMENT_PROVIDER',
    ]);
    expect(error.message).toContain('CLOCK must be "real" in production, got "simulated"');
    expect(error.message).toContain('PAYMENT_PROVIDER must be set in production: "montonio"');
    // and no secret was generated
    expect(readdirSync(dir)).toEqual([]);
  });

  it('with a complete environment loads and generates nothing into DATA_DIR', () => {
    const dir = dataDir();
    const config = loadConfig(production(dir));
    expect(config).toMatchObject({
      nodeEnv: 'production', jwtSecret: SECRET, emailIndexSecret: 'e'.repeat(40), clock: { mode: 'real' },
      smtpUrl: 'smtps://user:pass@smtp.example.ee:465', publicUrl: 'https://sinilill.example.ee',
      payments: { provider: 'montonio', sandboxSecret: '', montonio: { accessKey: 'access', secretKey: 'secret', apiUrl: 'https://sandbox-stargate.montonio.com/api' } },
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses each development default alone', () => {
    const dir = dataDir();
    for (const [variable, value] of [
      ['JWT_SECRET', ''], ['EMAIL_INDEX_SECRET', undefined], ['CLOCK', 'simulated'], ['SMTP_URL', ''],
      ['DATABASE_URL', ''], ['REDIS_URL', undefined], ['PUBLIC_URL', ''], ['PAYMENT_PROVIDER', 'sandbox'], ['PAYMENT_PROVIDER', ''],
    ] as const) {
      const env = { ...production(dir), [variable]: value };
      const issues = configError(() => loadConfig(env)).issues.map((issue) => issue.variable);
      // the sandbox also needs its secret: both are named at once
      expect(issues, `${variable}=${String(value)}`).toEqual(variable === 'PAYMENT_PROVIDER' && value === 'sandbox' ? ['PAYMENT_PROVIDER', 'SANDBOX_PAYMENT_SECRET'] : [variable]);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('runs the payment sandbox only with ALLOW_PAYMENT_SANDBOX=true and a set secret', () => {
    const dir = dataDir();
    const sandbox = { ...production(dir), PAYMENT_PROVIDER: 'sandbox', ALLOW_PAYMENT_SANDBOX: 'true' };
    expect(configError(() => loadConfig(sandbox)).issues.map((issue) => issue.variable)).toEqual(['SANDBOX_PAYMENT_SECRET']);
    expect(loadConfig({ ...sandbox, SANDBOX_PAYMENT_SECRET: SECRET }).payments).toEqual({ provider: 'sandbox', sandboxSecret: SECRET, montonio: null });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports a malformed value once, not again as a refused default', () => {
    const error = configError(() => loadConfig({
      ...production(dataDir()), CLOCK: 'fast', PAYMENT_PROVIDER: 'paypal', JWT_SECRET: 'short', PUBLIC_URL: 'sinilill.ee',
    }));
    expect(error.issues.map((issue) => issue.variable)).toEqual(['PUBLIC_URL', 'JWT_SECRET', 'CLOCK', 'PAYMENT_PROVIDER']);
    expect(error.message).toContain('CLOCK must be "simulated" or "real", got "fast"');
  });
});

describe('required', () => {
  it('returns a set value and names an unset one', () => {
    expect(required('postgres://x', 'DATABASE_URL')).toBe('postgres://x');
    expect(() => required(null, 'DATABASE_URL')).toThrow(ConfigError);
    expect(() => required(null, 'DATABASE_URL')).toThrow(/DATABASE_URL is not set/);
  });
});

describe('the upstream lists of the gateway (COMMAND_API_URLS, QUERY_API_URLS)', () => {
  it('reads comma-separated URLs, spaces around the commas allowed, trailing slashes dropped', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), COMMAND_API_URLS: 'http://a:3001/, http://b:3001', QUERY_API_URLS: 'https://q:3002' });
    expect(config.commandApiUrls).toEqual(['http://a:3001', 'http://b:3001']);
    expect(config.queryApiUrls).toEqual(['https://q:3002']);
  });

  it('refuses a list with something that is no http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), QUERY_API_URLS: 'http://a:3002,,ftp://b' })).toThrow(/QUERY_API_URLS must be one or more http:\/\/ or https:\/\/ URLs, comma-separated/);
  });
});

describe('the event log engine (EVENT_STORE, KURRENTDB_URL)', () => {
  it('is PostgreSQL by default, KurrentDB when chosen with its URL', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).eventStore).toEqual({ engine: 'postgres', kurrentdbUrl: null });
    expect(loadConfig({ DATA_DIR: dataDir(), EVENT_STORE: 'kurrentdb', KURRENTDB_URL: 'kurrentdb://localhost:2113?tls=false' }).eventStore)
      .toEqual({ engine: 'kurrentdb', kurrentdbUrl: 'kurrentdb://localhost:2113?tls=false' });
  });

  it('refuses KurrentDB without its URL, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), EVENT_STORE: 'kurrentdb' })).toThrow(/KURRENTDB_URL must be set with EVENT_STORE=kurrentdb/);
  });
});

describe('Strava sync (STRAVA_*)', () => {
  it('is off without the application, on with its id and secret, at Strava by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).strava).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), STRAVA_CLIENT_ID: '4242', STRAVA_CLIENT_SECRET: 'shh' }).strava).toEqual({
      clientId: '4242', clientSecret: 'shh', webhookVerifyToken: null, apiUrl: 'https://www.strava.com/api/v3', oauthUrl: 'https://www.strava.com/oauth',
    });
    expect(loadConfig({
      DATA_DIR: dataDir(), STRAVA_CLIENT_ID: '4242', STRAVA_CLIENT_SECRET: 'shh', STRAVA_WEBHOOK_VERIFY_TOKEN: 'token',
      STRAVA_API_URL: 'http://127.0.0.1:9000/api/v3/', STRAVA_OAUTH_URL: 'http://127.0.0.1:9000/oauth',
    }).strava).toMatchObject({ webhookVerifyToken: 'token', apiUrl: 'http://127.0.0.1:9000/api/v3', oauthUrl: 'http://127.0.0.1:9000/oauth' });
  });

  it('refuses one of the pair without the other, and a client id that is no number, without echoing the secret', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRAVA_CLIENT_ID: '4242' })).toThrow(/STRAVA_CLIENT_SECRET must be set with STRAVA_CLIENT_ID/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRAVA_CLIENT_SECRET: 'shh' })).toThrow(/STRAVA_CLIENT_ID must be set with STRAVA_CLIENT_SECRET/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRAVA_CLIENT_ID: 'abc', STRAVA_CLIENT_SECRET: 'shh' })).toThrow(/STRAVA_CLIENT_ID must be the numeric Client ID/);
  });
});
