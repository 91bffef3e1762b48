/**
 * The session identity carried in a login token's claims (spec §3): the web client decodes it
 * without verification for display; the server verifies it (HS256) before trusting it.
 *
 * Sessions: the token the client stores (spec §4) is a short-lived *access token*
 * (ACCESS_TOKEN_SECONDS) whose claims are spec §3's plus `sv` and `sid` (AccessClaims); what lasts
 * is the *refresh token*, an opaque value in an HttpOnly cookie (REFRESH_COOKIE, path
 * REFRESH_COOKIE_PATH) that POST /api/session/refresh trades for a new access token.
 */
import Type from 'typebox';

export const Role = Type.Union([Type.Literal('USER'), Type.Literal('ADMIN')]);
export type Role = Type.Static<typeof Role>;

export const SessionClaims = Type.Object({
  userId: Type.String(),
  fullName: Type.String(),
  is_approved: Type.Boolean(),
  participantId: Type.Union([Type.Integer(), Type.Null()]),
  teamId: Type.Union([Type.Integer(), Type.Null()]),
  role: Role,
  isPaid: Type.Boolean(),
});
export type SessionClaims = Type.Static<typeof SessionClaims>;

/**
 * How long an access token is valid, in seconds (15 minutes). Short, because a token
 * in localStorage can be read by any script of the page; the client refreshes it before expiry.
 * The auth plugin takes another value as an option (tests).
 */
export const ACCESS_TOKEN_SECONDS = 15 * 60;

/**
 * How long a refresh token (the cookie) is valid after it was issued, in seconds (30 days). Each
 * use replaces it with a new one valid as long again, so an active session lasts; an idle one
 * ends after 30 days.
 */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;

/** Name of the HttpOnly cookie that holds the refresh token. */
export const REFRESH_COOKIE = 'sinilill_session';

/** Path of the refresh cookie: the browser sends it to /api/session/refresh and /logout only. */
export const REFRESH_COOKIE_PATH = '/api/session';

/**
 * The claims of an access token: spec §3's session identity, plus
 * - `sv`: the account's session version when the token was issued. A password change or reset, a
 *   withdrawn approval, a role change or the account's deletion raises the version, and every
 *   authenticated route refuses a token with an older one (401 UNAUTHORIZED).
 * - `sid`: the session (refresh-token family) the token belongs to; logging out or a reused
 *   refresh token ends that session, and its access tokens with it.
 * A token without them (an older token format) is refused: the client refreshes or logs in again.
 */
export const AccessClaims = Type.Object({
  ...SessionClaims.properties,
  sv: Type.Integer({ minimum: 1 }),
  sid: Type.String({ minLength: 1, maxLength: 64 }),
});
export type AccessClaims = Type.Static<typeof AccessClaims>;

/** The `scope` claim of a queue-board token (never present in an access token). */
export const QUEUE_BOARD_SCOPE = 'queue-board';

/**
 * The claims of the queue board's cookie (docs/decisions/0017): a narrow credential that opens the
 * board's routes and nothing else, tied to the administrator's session like an access token.
 */
export const QueueBoardClaims = Type.Object({
  scope: Type.Literal(QUEUE_BOARD_SCOPE),
  userId: Type.String(),
  sv: Type.Integer({ minimum: 1 }),
  sid: Type.String({ minLength: 1, maxLength: 64 }),
});
export type QueueBoardClaims = Type.Static<typeof QueueBoardClaims>;
