/**
 * The caller's own account: POST /me/erase erases it after the password is
 * confirmed (CommandService.eraseOwnAccount: the administrator's deletion by the person
 * themself, entries kept; contracts my-data.ts).
 *
 * Guessing the password through this route with a stolen session is held to the login's budget:
 * the account's login limits (LoginThrottle, docs/decisions/0024) are looked at first (429 TOO_MANY_REQUESTS with
 * Retry-After while they hold) and a wrong password counts as a failed login of the account from
 * this address. After the erasure every session of the account has ended (its token gets 401) and
 * the refresh cookie is cleared.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountService, CommandService } from '@sinilill/commands';
import { EraseMyAccountAnswer, EraseMyAccountBody, ErrorAnswer } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { commandRequest } from '../command-request';
import type { LoginThrottle } from '../rate-limits';
import { clearRefreshCookie } from './session';

export interface MeRouteOptions {
  commands: CommandService;
  /** The account's e-mail, for the login limits' keys. */
  accounts: AccountService;
  /** The login limits (the same counters as POST /login's). */
  throttle: LoginThrottle;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 429: ErrorAnswer };

export const meRoutes: FastifyPluginAsyncTypebox<MeRouteOptions> = async (app, { commands, accounts, throttle }) => {
  app.post('/me/erase', {
    onRequest: [app.authenticate],
    schema: { body: EraseMyAccountBody, response: { 200: EraseMyAccountAnswer, ...errors } },
  }, async (request, reply) => {
    const userId = request.actor.userId;
    if (userId === null) throw new DomainError('UNAUTHORIZED', 'not an account');
    // The e-mail keys the login limits; an account without one (never the case for a live
    // participant) is keyed by its id, so it still has limits.
    const key = (await accounts.account(userId)).email ?? userId;
    const wait = await throttle.waitBeforeLogin(key, request.ip);
    if (wait > 0) {
      reply.header('retry-after', wait);
      throw new DomainError('TOO_MANY_REQUESTS', `erasure for this account from ${request.ip} waits ${wait} s`);
    }
    let result;
    try {
      result = await commands.eraseOwnAccount(request.body.password, commandRequest(request));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_PASSWORD') await throttle.failed(key, request.ip);
      throw error;
    }
    clearRefreshCookie(reply);
    return { success: true as const, position: result.position };
  });
};
