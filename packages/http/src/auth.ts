/**
 * Bearer authentication shared by the command API and the query API (@fastify/jwt, HS256 only,
 * secret from configuration). Decorates `app.authenticate` (an onRequest hook) and
 * `request.actor`, the acting user with the team resolved by the service (the command API from
 * the event log, the query API from the read models), never trusted from the token's claims.
 *
 * Sessions end when they should. An access token is short-lived (ACCESS_TOKEN_SECONDS,
 * 15 minutes) and carries spec §3's claims plus `sv`, the account's session version when it was
 * issued, and `sid`, its session (refresh-token family). `authenticate` answers 401 UNAUTHORIZED
 * for a missing, forged, expired or `alg: none` token, for one without `sv`/`sid` (an older
 * token format), for a scoped token (the queue board's), and — `sessions.session`: one primary-key
 * lookup, or none when the services' SessionCache keeps the live session (session-cache.ts) — when the account's version has been raised since (password change or
 * reset, withdrawn approval, role change, deletion), the account's sessions have ended (deleted)
 * or the token's session was logged out or revoked. An ADMIN claim is then checked against the
 * account itself (`sessions.account`, the event log): the actor is an administrator only while
 * the account is an approved ADMIN, so `requireAdmin` and every decider see the account's role,
 * not the token's.
 *
 * Also registers @fastify/cookie (once per app) for the refresh and queue-board cookies, and
 * decorates `app.sessionGuard` (the same checks for other credentials) and `app.queueBoardToken`
 * (the queue board's own narrow credential: `scope: 'queue-board'`, signed with a key derived
 * from the secret, so that neither kind of token passes for the other).
 */
import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { ACCESS_TOKEN_SECONDS, AccessClaims, QueueBoardClaims } from '@sinilill/contracts';
import { DomainError, type ActingUser } from '@sinilill/domain';
import { sqlSessionAuthority, type SessionAuthority, type SqlRunner, type StreamReader } from './session-authority';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    // The queue board's tokens are signed through app.jwt too (with their own key).
    payload: AccessClaims | QueueBoardClaims;
    user: AccessClaims;
  }
}

/** The checks `authenticate` makes, for credentials other than the Authorization header. */
export interface SessionGuard {
  /**
   * Throws DomainError('UNAUTHORIZED') unless the session `sid` of `userId` is live and the
   * account's session version is still `sv` (one primary-key lookup).
   */
  check(claims: { userId: string; sv: number; sid: string }): Promise<void>;
  /** True while the account is an approved ADMIN (its event stream, not a token's claim). */
  isAdmin(userId: string): Promise<boolean>;
}

/** The queue board's credential (docs/decisions/0017): signs and verifies its scoped tokens. */
export interface QueueBoardTokens {
  /** A token of these claims valid for `seconds`. */
  sign(claims: QueueBoardClaims, seconds: number): string;
  /** The claims of a valid, unexpired queue-board token; null for anything else (an access token too). */
  verify(token: string): QueueBoardClaims | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    sessionGuard: SessionGuard;
    queueBoardToken: QueueBoardTokens;
  }
  interface FastifyRequest {
    /** Set by `authenticate`: the role is the account's (see the module's comment). */
    actor: ActingUser;
  }
}

export interface AuthOptions {
  secret: string;
  /**
   * Lifetime of the access tokens `app.jwt.sign` issues, seconds; default ACCESS_TOKEN_SECONDS
   * (15 minutes, contracts). Tests shorten it.
   */
  accessTokenSeconds?: number;
  /** Resolves the actor's team (the command API: CommandService.resolveActor; the query API: team_members). */
  resolveActor: (actor: ActingUser) => Promise<ActingUser>;
  /**
   * Where sessions and accounts are looked up: a SessionAuthority (the command API: its
   * AccountService), or `{ sql, readStream }`, a runner of parameterised statements on the
   * application's database and a reader of the event log (the query API), read with
   * sqlSessionAuthority (session-authority.ts).
   */
  sessions: SessionAuthority | { sql: SqlRunner; readStream: StreamReader };
}

/**
 * onRequest hook, after `app.authenticate`: 403 FORBIDDEN unless the actor is an administrator
 * (spec §6: the admin console, the history, the operators' tools). The actor's role is the
 * account's current one (authenticate checked an ADMIN claim against the account's stream: a
 * demoted, unapproved or deleted administrator is not one, whatever the token says).
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.actor.role !== 'ADMIN') throw new DomainError('FORBIDDEN', 'administrators only');
}

/** The key of queue-board tokens: HMAC-SHA256 of a fixed label under the JWT secret. */
function queueBoardKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('sinilill queue-board token v1').digest();
}

function sessionGuardOf(authority: SessionAuthority): SessionGuard {
  return {
    async check({ userId, sv, sid }) {
      const state = await authority.session(userId, sid);
      if (!state) throw new DomainError('UNAUTHORIZED', 'no session for this account');
      if (state.ended) throw new DomainError('UNAUTHORIZED', 'the account was deleted');
      if (state.version !== sv) throw new DomainError('UNAUTHORIZED', 'session version raised since the token was issued');
      if (!state.familyLive) throw new DomainError('UNAUTHORIZED', 'session logged out or revoked');
    },
    async isAdmin(userId) {
      const account = await authority.account(userId);
      return account.exists && !account.deleted && account.approved && account.role === 'ADMIN';
    },
  };
}

export const authPlugin = fp<AuthOptions>(async (app: FastifyInstance, options) => {
  if (!app.hasPlugin('@fastify/cookie')) await app.register(fastifyCookie);
  await app.register(fastifyJwt, {
    secret: options.secret,
    // A number is seconds for @fastify/jwt.
    sign: { algorithm: 'HS256', expiresIn: options.accessTokenSeconds ?? ACCESS_TOKEN_SECONDS },
    verify: { algorithms: ['HS256'] },
  });
  const authority = 'sql' in options.sessions ? sqlSessionAuthority(options.sessions.sql, options.sessions.readStream) : options.sessions;
  const guard = sessionGuardOf(authority);
  const boardKey = queueBoardKey(options.secret);

  app.decorate('sessionGuard', guard);
  app.decorate('queueBoardToken', {
    sign: (claims: QueueBoardClaims, seconds: number) => app.jwt.sign(claims, { key: boardKey, expiresIn: seconds }),
    verify: (token: string) => {
      try {
        const claims: unknown = app.jwt.verify(token, { key: boardKey });
        return Value.Check(QueueBoardClaims, claims) ? claims : null;
      } catch {
        return null;
      }
    },
  } satisfies QueueBoardTokens);
  app.decorateRequest('actor', null as unknown as ActingUser);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    try {
      await request.jwtVerify();
    } catch {
      throw new DomainError('UNAUTHORIZED');
    }
    const claims: unknown = request.user;
    if (!Value.Check(AccessClaims, claims)) throw new DomainError('UNAUTHORIZED', 'claims do not match (no sv or sid: an older token format?)');
    if ((claims as { scope?: unknown }).scope !== undefined) throw new DomainError('UNAUTHORIZED', 'a scoped token is no access token');
    await guard.check(claims);
    const admin = claims.role === 'ADMIN' && (await guard.isAdmin(claims.userId));
    request.actor = await options.resolveActor({
      userId: claims.userId,
      role: admin ? 'ADMIN' : 'USER',
      participantId: claims.participantId,
      teamId: claims.teamId,
    });
  });
}, { name: 'auth' });
