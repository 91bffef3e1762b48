/**
 * Account commands (spec §7): POST /registerteam, /jointeam, /login, /requestpasswordreset,
 * /resetpassword, /confirmaccount and PUT /account/changepassword.
 *
 * Bodies are the contracts' strict TypeBox schemas (unknown fields, wrong types and over-long
 * strings → 400 INVALID_REQUEST); rules beyond shape are the AccountService's and the deciders'.
 * `company: true` registers a company team and is INVALID_REQUEST on /jointeam.
 * A registration with an address that has an account answers as a new one does and mails the
 * owner instead; /requestpasswordreset answers an unknown address as a known one: neither tells
 * which addresses are registered. POST /passwordstrength (not in spec §7) answers whether a
 * candidate password passes the server's PASSWORD_TOO_WEAK rule, for the forms.
 *
 * Rate limits (docs/decisions/0024; rate-limits.ts), answered 429 `{ message: 'TOO_MANY_REQUESTS' }`
 * with Retry-After (seconds): per client address on /login, /requestpasswordreset,
 * /resetpassword and /passwordstrength, counted by @fastify/rate-limit after validation
 * (malformed bodies cost nothing), and on /registerteam + /jointeam (one short burst window and
 * one hourly budget, both shared by the two routes) counted in a preHandler the same way; per account on /login, failures only (LoginThrottle):
 * an address that failed too often at an account waits, and an account failed at from many
 * addresses is slowed down for everyone, at most minutes. A completed reset clears the account's.
 *
 * Sessions: /login answers `{ token }`, a 15-minute access token (spec §3 claims plus
 * `sv` and `sid`), and sets the HttpOnly refresh cookie (session.ts) that renews it. A password
 * change ends every session of the account; the caller gets a new refresh cookie with the
 * answer, so their next refresh works while every other device is logged out.
 */
// The `app.jwt` decoration's types (the plugin itself is registered by @sinilill/http's authPlugin).
import type {} from '@fastify/jwt';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChangePasswordBody,
  ConfirmAccountBody,
  ErrorAnswer,
  LoginAnswer,
  LoginBody,
  PasswordStrengthAnswer,
  PasswordStrengthBody,
  RegistrationBody,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SuccessAnswer,
  genderName,
  mailLanguageOf,
} from '@sinilill/contracts';
import { isStrongPassword, type AccountService } from '@sinilill/commands';
import { DomainError, type ActingUser } from '@sinilill/domain';
import { perAddress, writeRateLimitHeaders } from '@sinilill/http';
import { commandRequest } from '../command-request';
import { LoginThrottle, addressKey, type Limit, type RateLimitCounters, type RateLimits } from '../rate-limits';
import { setRefreshCookie } from './session';
import { routeFile } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

/** At most `max` requests in `timeWindowMs` milliseconds (rate-limits.ts Limit). */
export type RateLimitOptions = Limit;

export interface AccountRouteOptions {
  accounts: AccountService;
  /** The limits (docs/decisions/0024; rateLimitsWith gives the defaults). */
  rateLimits: RateLimits;
  /** Where the counters live (Redis shared by every process, or this process's memory). */
  counters: RateLimitCounters;
  /** Keys the e-mail hashes in the counters' keys (the JWT secret: the same in every process). */
  keySecret: string;
}

/** A caller without a token (registration, login, reset, confirmation). */
const VISITOR: ActingUser = { userId: null, role: 'USER', participantId: null, teamId: null };

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 429: ErrorAnswer };

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, options) => {
  const { accounts, counters, rateLimits: limits } = options;
  const throttle = new LoginThrottle(counters, limits, options.keySecret);

  // The per-address limits count through @fastify/rate-limit, registered for the whole app
  // (rateLimitPlugin of @sinilill/http, app.ts): each route's config names its rule (perAddress).
  /**
   * Counts the request against each rule for the client's address, in order, until one is over:
   * then 429 with Retry-After (seconds until that rule's window ends). Later rules are not
   * counted for a refused request, so a burst spends nothing of a longer budget after its limit.
   * The RateLimit headers are the last rule counted (the one that refused, or the long budget).
   */
  const perAddressAll = (rules: readonly { rule: string; limit: Limit }[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    for (const { rule, limit } of rules) {
      const count = await counters.increment(`${rule}:${addressKey(request.ip)}`, limit.timeWindowMs);
      writeRateLimitHeaders(reply, limit, count);
      if (count.current > limit.max) throw new DomainError('TOO_MANY_REQUESTS', `${rule} limit of ${request.ip}`);
    }
  };
  // A short window stops scripts, a long one bounds them; a group behind one address fits both (docs/decisions/0024, decision 0058).
  const registrations = perAddressAll([
    { rule: 'registration-burst', limit: limits.registrationBurstPerAddress },
    { rule: 'registration', limit: limits.registrationsPerAddress },
  ]);

  const registration = (type: 'REGISTER_TEAM' | 'JOIN_TEAM') => async (request: FastifyRequest<{ Body: RegistrationBody }>) => {
    const body = request.body;
    if (body.type !== type) throw new DomainError('INVALID_REQUEST', `type must be ${type} on ${request.url}`);
    // A company team is chosen when it is registered; a member joins it as it is.
    if (type === 'JOIN_TEAM' && body.company === true) throw new DomainError('INVALID_REQUEST', 'company is for REGISTER_TEAM only');
    const person = {
      fullName: body.full_name, email: body.email, gender: genderName(body.gender), birthYear: body.birth_year,
      password: body.password, newsletter: body.newsletter, lang: body.lang,
    };
    // With an Idempotency-Key, a retry whose first answer was lost answers as the first did.
    const command = commandRequest(request, VISITOR);
    const result = type === 'REGISTER_TEAM'
      ? await accounts.registerTeam({ ...person, teamName: body.team_name ?? '', company: body.company === true }, command)
      : await accounts.joinTeam({ ...person, joinCode: body.team_join_code ?? '' }, command);
    if (!result.mailSent) request.log.error({ userId: result.userId }, 'registration mail not sent');
    // The same answer whether or not the address had an account (spec §7; registrationOfKnownAddress).
    return { success: true, position: result.position };
  };

  app.post('/registerteam', { schema: { body: RegistrationBody, response: { 200: SuccessAnswer, ...errors } }, preHandler: (request, reply) => registrations(request, reply) }, registration('REGISTER_TEAM'));
  app.post('/jointeam', { schema: { body: RegistrationBody, response: { 200: SuccessAnswer, ...errors } }, preHandler: (request, reply) => registrations(request, reply) }, registration('JOIN_TEAM'));

  // The password is judged and forgotten: neither the body nor the password is logged.
  app.post('/passwordstrength', {
    schema: { body: PasswordStrengthBody, response: { 200: PasswordStrengthAnswer, ...errors } },
    config: perAddress('password-check', limits.passwordChecksPerAddress),
  }, async (request) => {
    const { password, email, full_name: fullName, team_name: teamName } = request.body;
    return { strong: isStrongPassword(password, { email: email ?? null, fullName: fullName ?? null, teamName: teamName ?? null }) };
  });

  app.post('/login', {
    schema: { body: LoginBody, response: { 200: LoginAnswer, ...errors } }, config: perAddress('login', limits.loginPerAddress),
  }, async (request, reply) => {
    const { email } = request.body;
    // The account's limits are looked at before the password is: a held account answers 429
    // whether or not the password is right, so a guesser learns nothing while it waits.
    const wait = await throttle.waitBeforeLogin(email, request.ip);
    if (wait > 0) {
      reply.header('retry-after', wait);
      throw new DomainError('TOO_MANY_REQUESTS', `login for this account from ${request.ip} waits ${wait} s`);
    }
    let session;
    try {
      session = await accounts.startSession(request.body);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_CREDENTIALS') await throttle.failed(email, request.ip);
      throw error;
    }
    await throttle.succeeded(email, request.ip);
    setRefreshCookie(reply, session);
    return { token: app.jwt.sign(session.claims) };
  });

  app.post('/requestpasswordreset', {
    schema: { body: RequestPasswordResetBody, response: { 200: SuccessAnswer, ...errors } },
    config: perAddress('reset-request', limits.passwordResetsPerAddress),
  }, async (request) => {
    const { email, lang } = request.body;
    const result = await accounts.requestPasswordReset({ email, lang: mailLanguageOf(lang) }, commandRequest(request, VISITOR));
    return { success: true, position: result.position };
  });

  app.post('/resetpassword', {
    schema: { body: ResetPasswordBody, response: { 200: SuccessAnswer, ...errors } },
    config: perAddress('reset-complete', limits.passwordResetsPerAddress),
  }, async (request) => {
    const result = await accounts.resetPassword(request.body, commandRequest(request, VISITOR));
    // The owner proved the mailbox: whatever held the account's logins is lifted (docs/decisions/0024).
    if (result.email) await throttle.cleared(result.email, request.ip);
    return { success: true, position: result.position };
  });

  app.post('/confirmaccount', {
    schema: { body: ConfirmAccountBody, response: { 200: SuccessAnswer, ...errors } },
    config: perAddress('confirmation', limits.accountConfirmationsPerAddress),
  }, async (request) => {
    const { body } = request;
    // Spec §7 "token, id" read tolerantly: `id` or `userId` (contracts loose.ts).
    const result = await accounts.confirmAccount({ userId: 'id' in body ? body.id : body.userId, token: body.token }, commandRequest(request, VISITOR));
    return { success: true, position: result.position };
  });

  app.put('/account/changepassword', {
    onRequest: [app.authenticate],
    schema: { body: ChangePasswordBody, response: { 200: SuccessAnswer, ...errors } },
  }, async (request, reply) => {
    const result = await accounts.changePassword(request.body, commandRequest(request));
    // Every session of the account ended with the change; the caller, who just proved the
    // password, starts a new one (their access token is refused; the client refreshes with this).
    setRefreshCookie(reply, await accounts.renewSession(request.actor.userId ?? ''));
    return { success: true, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts); account routes: only with the AccountService. */
export default routeFile(accountRoutes, (deps: RouteDependencies) => (deps.accounts && deps.counters
  ? { accounts: deps.accounts, counters: deps.counters, keySecret: deps.jwtSecret, rateLimits: deps.rateLimits }
  : null));
