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
 * Counters live in Redis, shared by every command-API process (RateLimitCounters of
 * @sinilill/http, which falls back to this process's memory while Redis does not answer). Every
 * limit answers with the IETF draft's RateLimit headers (docs/decisions/0108).
 */
import { createHmac } from 'node:crypto';
import { emailComparisonForm } from '@sinilill/domain';
import { addressKey, type Limit, type RateLimitCounters } from '@sinilill/http';

// The counters and the per-address pieces are shared with the query API (@sinilill/http rate-limit.ts).
export { RateLimitCounters, addressKey, type Count, type Limit, type RateLimitCountersOptions, type RateLimitRedis } from '@sinilill/http';

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
  /** POST /confirmaccount per client address (a token could be guessed at; each try is a transaction). */
  accountConfirmationsPerAddress: Limit;
  /** POST /unsubscribe and /unsubscribe/{token} together, per client address (a link could be guessed at). */
  unsubscribesPerAddress: Limit;
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
 *   hour is no sweep of the accounts);
 * - account confirmations: 20 per address in 15 minutes (a person follows one link, a few times);
 * - unsubscriptions: 20 per address in 10 minutes (a person unsubscribes once; docs/decisions/0108).
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
  accountConfirmationsPerAddress: { max: 20, timeWindowMs: 15 * MINUTE },
  unsubscribesPerAddress: { max: 20, timeWindowMs: 10 * MINUTE },
};

/** The defaults with `overrides` applied; `every` (a test's shortcut) replaces every Limit first. */
export function rateLimitsWith(overrides: Partial<RateLimits> = {}, every?: Limit): RateLimits {
  const base: RateLimits = every
    ? {
        ...DEFAULT_RATE_LIMITS,
        loginPerAddress: every, loginFailuresPerAccountAndAddress: every, loginFailuresPerAccount: every,
        registrationBurstPerAddress: every, registrationsPerAddress: every, passwordChecksPerAddress: every,
        passwordResetsPerAddress: every, accountConfirmationsPerAddress: every, unsubscribesPerAddress: every,
      }
    : DEFAULT_RATE_LIMITS;
  return { ...base, ...overrides };
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
