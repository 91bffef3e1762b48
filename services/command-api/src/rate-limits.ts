/**
 * Rate limits that count people (docs/decisions/0024): the limits, their counters in Redis, and
 * the login throttle.
 *
 * - Per client address (`request.ip`: the gateway forwards the client's address and the APIs
 *   trust it from the gateway only, @sinilill/http TRUSTED_PROXIES): login attempts, registrations,
 *   password-reset requests and completions. These count every request, through
 *   @fastify/rate-limit's route hooks (routes/accounts.ts).
 * - Per account: failed logins per (account, address) pair lock that pair out for the window;
 *   failed logins per account from every address, past a threshold, hold the account for a delay
 *   that doubles with each further failure up to a few minutes (LoginThrottle). A completed
 *   password reset clears the account's counters.
 *
 * Counters live in Redis under one key prefix per copy of the app (BULLMQ_PREFIX), so every
 * command-API process shares them. When Redis does not answer (down, or slower than its command
 * timeout) the counters fall back to this process's memory until it answers again: the limits
 * still hold, per process, and no request fails because of Redis (never 500). Neither open (no
 * limits while Redis is down would let an attacker who can stop Redis guess freely) nor closed
 * (refusing every login while Redis is down would lock everyone out).
 */
import { createHmac } from 'node:crypto';
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { normalizeIP } from '@fastify/rate-limit';
import { emailComparisonForm } from '@sinilill/domain';

/** At most `max` in `timeWindowMs` milliseconds (a fixed window from the first one). */
export interface Limit {
  max: number;
  timeWindowMs: number;
}

/** The limits of the account routes (docs/decisions/0024); see DEFAULT_RATE_LIMITS for the values and reasons. */
export interface RateLimits {
  /** Login attempts per client address, whatever the e-mail or outcome (password spraying). */
  loginPerAddress: Limit;
  /** Failed logins per account and client address; then that pair waits out the window. */
  loginFailuresPerAccountAndAddress: Limit;
  /**
   * Failed logins per account from every address before the account's slow-down starts: each
   * further failure holds the account for 1 s, 2 s, 4 s … up to loginSlowDownMaxMs.
   */
  loginFailuresPerAccount: Limit;
  /** The longest hold of the slow-down, milliseconds. */
  loginSlowDownMaxMs: number;
  /**
   * POST /registerteam and /jointeam together, per client address, in a short window (each sends
   * a mail): what a script sending registrations one after another meets first.
   */
  registrationBurstPerAddress: Limit;
  /** POST /registerteam and /jointeam together, per client address, in a long window (the budget). */
  registrationsPerAddress: Limit;
  /** POST /passwordstrength per client address (each check costs the server a few milliseconds). */
  passwordChecksPerAddress: Limit;
  /**
   * POST /requestpasswordreset per client address (it tells whether an address is registered,
   * spec §5, and sends a mail); POST /resetpassword has a counter of its own with the same limit.
   */
  passwordResetsPerAddress: Limit;
}

const MINUTE = 60_000;

/**
 * The limits the command API runs with unless told otherwise (docs/decisions/0024). The browser tests stay below
 * them from one address (127.0.0.1) per stack: at most ~14 registrations, ~10 logins and 2 reset
 * requests in a few minutes.
 * - login: 30 per address in 10 minutes (a team or an office behind one NAT logs in rarely, the
 *   session lasts 30 days; spraying 40 e-mails stops at the 31st);
 * - 10 failures per account and address in 15 minutes (typos pass; a guesser at one address gets
 *   10 guesses per quarter hour at one account, and cannot lock the owner out elsewhere);
 * - 20 failures per account in 15 minutes before the slow-down (more than two addresses' worth),
 *   holds of at most 5 minutes (an owner waits minutes, not hours; a botnet gets ~12 guesses an
 *   hour at one account);
 * - registration: 10 per address in a minute and 100 in an hour. Filling the wizard takes a
 *   person a minute or more, so even a class or an office registering together at a kick-off
 *   (60 people behind one address within the hour, several finishing in the same minute) stays
 *   under 10 a minute, while a script is stopped after 10 and then gets 10 a minute, at most 100
 *   an hour (20 an hour stopped the groups; docs/decisions/0058);
 * - password-strength checks: 60 per address in 10 minutes (a person checks on leaving a form);
 * - password reset: 10 requests (and 10 completions) per address in 15 minutes (40 addresses an
 *   hour is no sweep of the accounts).
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginPerAddress: { max: 30, timeWindowMs: 10 * MINUTE },
  loginFailuresPerAccountAndAddress: { max: 10, timeWindowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 20, timeWindowMs: 15 * MINUTE },
  loginSlowDownMaxMs: 5 * MINUTE,
  registrationBurstPerAddress: { max: 10, timeWindowMs: MINUTE },
  registrationsPerAddress: { max: 100, timeWindowMs: 60 * MINUTE },
  passwordChecksPerAddress: { max: 60, timeWindowMs: 10 * MINUTE },
  passwordResetsPerAddress: { max: 10, timeWindowMs: 15 * MINUTE },
};

/** The defaults with `overrides` applied; `every` (a test's shortcut) replaces every Limit first. */
export function rateLimitsWith(overrides: Partial<RateLimits> = {}, every?: Limit): RateLimits {
  const base: RateLimits = every
    ? {
        ...DEFAULT_RATE_LIMITS,
        loginPerAddress: every, loginFailuresPerAccountAndAddress: every, loginFailuresPerAccount: every,
        registrationBurstPerAddress: every, registrationsPerAddress: every, passwordChecksPerAddress: every,
        passwordResetsPerAddress: every,
      }
    : DEFAULT_RATE_LIMITS;
  return { ...base, ...overrides };
}

/**
 * The Redis commands the counters use (an ioredis client fits). Give the client a short
 * `commandTimeout` and `enableOfflineQueue: false`, so that a Redis that is down or slow makes a
 * command fail at once rather than hold the request (the counters then fall back, see above).
 */
export interface RateLimitRedis {
  eval(script: string, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
}

/** A counter's state: how many in the current window, and milliseconds until it ends (0: none). */
export interface Count {
  current: number;
  ttl: number;
}

/** INCR with the window set on the first increment (and on a key that somehow has none). */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

/** The counter and its time to live, without changing it. */
const READ = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

/** Sets the counter to 1 for exactly `ms` (a hold), whatever it was. */
const HOLD = `
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return {1, tonumber(ARGV[1])}`;

/** Entries the in-process fallback keeps before it drops expired ones. */
const LOCAL_PRUNE_AT = 10_000;

export interface RateLimitCountersOptions {
  /** Where the counters live; without it (tests) each process counts alone. */
  redis?: RateLimitRedis | null;
  /** Key prefix, one per copy of the app sharing a Redis (e.g. `sinilill:rate-limit:`). */
  prefix: string;
  /**
   * The clock of the in-process counters, epoch milliseconds (default Date.now); tests drive the
   * windows with it (without Redis, whose windows follow its own clock).
   */
  now?: () => number;
  /** Told when Redis stops answering (the counters fall back) and when it answers again. */
  onRedisState?: (state: 'unavailable' | 'available', error?: unknown) => void;
}

/**
 * The rate-limit counters (see the module comment): fixed-window counters in Redis, falling back
 * to this process's memory while Redis does not answer. `Store` plugs them into
 * @fastify/rate-limit (its `store` option); LoginThrottle uses them directly. Keys carry their
 * rule's name, so every limiter shares one key space under the prefix.
 */
export class RateLimitCounters {
  private readonly local = new Map<string, { current: number; expiresAt: number }>();
  private redisAvailable = true;

  private readonly now: () => number;

  constructor(private readonly options: RateLimitCountersOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Adds one to `key`'s counter (opening a window of `windowMs` on the first) and answers it. */
  increment(key: string, windowMs: number): Promise<Count> {
    return this.run(INCREMENT, key, [Math.max(1, Math.round(windowMs))], () => {
      const now = this.now();
      const entry = this.liveEntry(key, now) ?? { current: 0, expiresAt: now + windowMs };
      entry.current += 1;
      this.local.set(key, entry);
      return { current: entry.current, ttl: entry.expiresAt - now };
    });
  }

  /** `key`'s counter, unchanged ({0, 0} when there is none). */
  read(key: string): Promise<Count> {
    return this.run(READ, key, [], () => {
      const now = this.now();
      const entry = this.liveEntry(key, now);
      return entry ? { current: entry.current, ttl: entry.expiresAt - now } : { current: 0, ttl: 0 };
    });
  }

  /** Sets `key` to 1 for `ms` milliseconds from now (a hold), replacing what it was. */
  hold(key: string, ms: number): Promise<Count> {
    return this.run(HOLD, key, [Math.max(1, Math.round(ms))], () => {
      this.local.set(key, { current: 1, expiresAt: this.now() + ms });
      return { current: 1, ttl: ms };
    });
  }

  /** Deletes the counters (in Redis and in the fallback); never throws. */
  async forget(...keys: string[]): Promise<void> {
    for (const key of keys) this.local.delete(key);
    const { redis, prefix } = this.options;
    if (!redis) return;
    try {
      await redis.del(...keys.map((key) => prefix + key));
      this.markAvailable();
    } catch (error) {
      this.markUnavailable(error);
    }
  }

  /**
   * @fastify/rate-limit's store constructor (its `store` option) over these counters: `incr` and
   * `read` as the plugin expects (the `max` argument is the plugin's to judge), `child` the same
   * store (route keys carry their rule's name; the plugin would otherwise prefix the route).
   */
  get Store(): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore & { read: FastifyRateLimitStore['incr'] } {
    const increment = (key: string, windowMs: number) => this.increment(key, windowMs);
    const read = (key: string) => this.read(key);
    return class CountersStore {
      incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
        increment(key, timeWindow).then((count) => callback(null, count), (error: Error) => callback(error));
      }

      read(key: string, callback: (error: Error | null, result?: Count) => void): void {
        read(key).then((count) => callback(null, count), (error: Error) => callback(error));
      }

      child(): FastifyRateLimitStore {
        return this;
      }
    };
  }

  private liveEntry(key: string, now: number) {
    const entry = this.local.get(key);
    if (entry && entry.expiresAt > now) return entry;
    if (entry) this.local.delete(key);
    return undefined;
  }

  private async run(script: string, key: string, args: number[], fallback: () => Count): Promise<Count> {
    const { redis, prefix } = this.options;
    if (redis) {
      try {
        const [current, ttl] = (await redis.eval(script, 1, prefix + key, ...args)) as [number, number];
        this.markAvailable();
        return { current: Number(current), ttl: Number(ttl) };
      } catch (error) {
        this.markUnavailable(error);
      }
    }
    if (this.local.size > LOCAL_PRUNE_AT) {
      const now = this.now();
      for (const [name, entry] of this.local) if (entry.expiresAt <= now) this.local.delete(name);
    }
    return fallback();
  }

  private markUnavailable(error: unknown): void {
    if (!this.redisAvailable) return;
    this.redisAvailable = false;
    this.options.onRedisState?.('unavailable', error);
  }

  private markAvailable(): void {
    if (this.redisAvailable) return;
    this.redisAvailable = true;
    this.options.onRedisState?.('available');
  }
}

/** A client address as the counters key it: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64. */
export function addressKey(ip: string): string {
  return normalizeIP(ip);
}

/** An account as the counters key it: a keyed hash of the e-mail's comparison form (no address in Redis). */
export function accountKey(email: string, secret: string): string {
  return createHmac('sha256', secret).update(`rate-limit:${emailComparisonForm(email)}`).digest('base64url').slice(0, 32);
}

/**
 * The account half of the login limits (docs/decisions/0024), over RateLimitCounters:
 * - `waitBeforeLogin` before the password is checked: seconds to wait (Retry-After) while the
 *   account is held, or while this address has used up its failures at this account; else 0;
 * - `failed` after a wrong password (INVALID_CREDENTIALS): counts the failure for the pair and for
 *   the account; past the account's threshold it holds the account for 2^(n − threshold − 1)
 *   seconds, at most loginSlowDownMaxMs;
 * - `succeeded` after a right password: forgets this pair's failures (the owner's typos);
 * - `cleared` after a completed password reset: forgets the account's failures and hold, and the
 *   failures of the address that completed it.
 * Unknown e-mails are counted like accounts (the answer must not tell them apart).
 */
export class LoginThrottle {
  constructor(
    private readonly counters: RateLimitCounters,
    private readonly limits: RateLimits,
    /** Keys the e-mail hashes (accountKey); the same in every process of the app. */
    private readonly secret: string,
  ) {}

  private keys(email: string, ip: string) {
    const account = accountKey(email, this.secret);
    return { pair: `login-failures:${account}|${addressKey(ip)}`, account: `login-failures:${account}`, hold: `login-hold:${account}` };
  }

  /** Seconds to wait before this address may try this account again; 0 when it may now. */
  async waitBeforeLogin(email: string, ip: string): Promise<number> {
    const keys = this.keys(email, ip);
    const [hold, pair] = await Promise.all([this.counters.read(keys.hold), this.counters.read(keys.pair)]);
    const waits = [0];
    if (hold.current > 0 && hold.ttl > 0) waits.push(hold.ttl);
    if (pair.current >= this.limits.loginFailuresPerAccountAndAddress.max && pair.ttl > 0) waits.push(pair.ttl);
    return Math.ceil(Math.max(...waits) / 1000);
  }

  /** Counts a wrong password from this address at this account (see the class comment). */
  async failed(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const { loginFailuresPerAccountAndAddress: pairLimit, loginFailuresPerAccount: accountLimit } = this.limits;
    const [, account] = await Promise.all([
      this.counters.increment(keys.pair, pairLimit.timeWindowMs),
      this.counters.increment(keys.account, accountLimit.timeWindowMs),
    ]);
    const beyond = account.current - accountLimit.max;
    if (beyond > 0) await this.counters.hold(keys.hold, slowDownMs(beyond, this.limits.loginSlowDownMaxMs));
  }

  /** A right password from this address: its earlier failures at this account are forgotten. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.counters.forget(this.keys(email, ip).pair);
  }

  /** A completed password reset: the account's failures and hold go, and this address's. */
  async cleared(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    await this.counters.forget(keys.pair, keys.account, keys.hold);
  }
}

/** The hold after the `beyond`-th failure past the threshold: 1 s, 2 s, 4 s …, at most `maxMs`. */
export function slowDownMs(beyond: number, maxMs: number): number {
  return Math.min(1000 * 2 ** Math.min(Math.max(beyond, 1) - 1, 30), maxMs);
}
