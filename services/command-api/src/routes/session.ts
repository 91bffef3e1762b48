/**
 * Sessions:
 *
 * - POST /session/refresh answers a fresh access token `{ token }` (LoginAnswer, spec §3 claims
 *   plus `sv` and `sid`) with the account's current identity read from the log, so that a session
 *   follows what changed since the login (after a payment, its isPaid).
 *   - With the refresh cookie (REFRESH_COOKIE, HttpOnly, path /api/session): the cookie's refresh
 *     token is traded for a new one (rotation; AccountService.refreshSession) and the cookie is
 *     replaced. A used, expired, revoked or unknown token, one issued before the account's session
 *     version was raised, or an account that is gone or no longer approved: 401 UNAUTHORIZED and
 *     the cookie is cleared. A token used a second time revokes its whole session.
 *   - Without the cookie, a valid access token in the Authorization header
 *     (authenticate: current session version, live session) gets its claims refreshed, but not
 *     its lifetime — the new token expires when the presented one does, so an access token alone
 *     never outlives 15 minutes.
 * - POST /session/logout ends the cookie's session (its refresh tokens and the access tokens of
 *   its `sid` stop working at once), clears the cookie and answers `{ success: true }`, with or
 *   without a cookie.
 *
 * An account that is gone, or no longer approved, gets 401 UNAUTHORIZED (the client then clears
 * the session, spec §4).
 */
// The `app.jwt` decoration's types (the plugin itself is registered by @sinilill/http's authPlugin).
import type {} from '@fastify/jwt';
// The cookie decorations' types (@fastify/cookie is registered by the same authPlugin).
import type {} from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorAnswer, LoginAnswer, REFRESH_COOKIE, REFRESH_COOKIE_PATH, SuccessAnswer } from '@sinilill/contracts';
import type { AccountService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';

export interface SessionRouteOptions {
  accounts: AccountService;
}

/** The cookie's attributes: HttpOnly, Secure, SameSite=Strict, sent to /api/session/* only. */
const COOKIE = { httpOnly: true, secure: true, sameSite: 'strict', path: REFRESH_COOKIE_PATH } as const;

/**
 * Sets the refresh cookie to `session.refreshToken`, for as long as it is valid (Max-Age, seconds;
 * 30 days). Secure always: browsers accept a Secure cookie from http://localhost and
 * http://127.0.0.1 as well.
 */
export function setRefreshCookie(reply: FastifyReply, session: { refreshToken: string; refreshMaxAgeSeconds: number }): void {
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, { ...COOKIE, maxAge: session.refreshMaxAgeSeconds });
}

/** Tells the browser to forget the refresh cookie. */
export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, COOKIE);
}

/** The refresh cookie's value, or undefined. */
function refreshCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, { accounts }) => {
  app.post('/session/refresh', {
    schema: { response: { 200: LoginAnswer, 401: ErrorAnswer } },
  }, async (request, reply) => {
    const cookie = refreshCookie(request);
    if (cookie !== undefined) {
      try {
        const session = await accounts.refreshSession(cookie);
        setRefreshCookie(reply, session);
        return { token: app.jwt.sign(session.claims) };
      } catch (error) {
        if (error instanceof DomainError && error.code === 'UNAUTHORIZED') clearRefreshCookie(reply);
        throw error;
      }
    }
    await app.authenticate(request, reply);
    const claims = request.user;
    const account = await accounts.account(claims.userId);
    if (!account.exists || account.deleted || !account.approved) throw new DomainError('UNAUTHORIZED', 'no live, approved account');
    // The presented token's expiry stays: only the cookie extends a session.
    const secondsLeft = Math.max(1, Math.floor(((request.user as { exp?: number }).exp ?? 0) - Date.now() / 1000));
    return { token: app.jwt.sign({ ...(await accounts.identity(account)), sv: claims.sv, sid: claims.sid }, { expiresIn: secondsLeft }) };
  });

  app.post('/session/logout', {
    schema: { response: { 200: SuccessAnswer } },
  }, async (request, reply) => {
    const cookie = refreshCookie(request);
    if (cookie !== undefined) await accounts.endSession(cookie);
    clearRefreshCookie(reply);
    return { success: true };
  });
};
