/**
 * POST /session/refresh (authenticated; issue 7): a fresh login token with the account's current
 * session identity (spec §3), signed like /login's, so that a session follows what changed since
 * the login — after a payment, its isPaid. Answers LoginAnswer {token}. An account that is gone,
 * or no longer approved, gets 401 UNAUTHORIZED (the client then clears the session, spec §4).
 */
// The `app.jwt` decoration's types (the plugin itself is registered by @sinilill/http's authPlugin).
import type {} from '@fastify/jwt';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, LoginAnswer } from '@sinilill/contracts';
import type { AccountService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';

export interface SessionRouteOptions {
  accounts: AccountService;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, { accounts }) => {
  app.post('/session/refresh', {
    onRequest: [app.authenticate],
    schema: { response: { 200: LoginAnswer, 401: ErrorAnswer } },
  }, async (request) => {
    const account = request.actor.userId === null ? null : await accounts.account(request.actor.userId);
    if (!account?.exists || account.deleted || !account.approved) throw new DomainError('UNAUTHORIZED', 'no live, approved account');
    return { token: app.jwt.sign(await accounts.identity(account)) };
  });
};
