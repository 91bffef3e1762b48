/**
 * Bearer authentication shared by the command API and the query API (@fastify/jwt, HS256 only,
 * secret from configuration). Decorates `app.authenticate` (an onRequest hook: 401 UNAUTHORIZED
 * for a missing, forged, expired or `alg: none` token) and `request.actor`, the acting user with
 * the team resolved by the service (the command API from the event log, the query API from the
 * read models), never trusted from the token's claims.
 */
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { SessionClaims } from '@sinilill/contracts';
import { DomainError, type ActingUser } from '@sinilill/domain';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionClaims;
    user: SessionClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by `authenticate`. */
    actor: ActingUser;
  }
}

export interface AuthOptions {
  secret: string;
  /** Lifetime of the tokens `app.jwt.sign` issues (a zeit/ms string or seconds); default 7 days. */
  expiresIn?: string | number;
  /** Resolves the actor's team (the command API: CommandService.resolveActor; the query API: team_members). */
  resolveActor: (actor: ActingUser) => Promise<ActingUser>;
}

/**
 * onRequest hook, after `app.authenticate`: 403 FORBIDDEN unless the actor is an administrator
 * (spec §6: the admin console, the history, the operators' tools).
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.actor.role !== 'ADMIN') throw new DomainError('FORBIDDEN', 'administrators only');
}

export const authPlugin = fp<AuthOptions>(async (app, options) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256', expiresIn: options.expiresIn ?? '7d' },
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('actor', null as unknown as ActingUser);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    try {
      await request.jwtVerify();
    } catch {
      throw new DomainError('UNAUTHORIZED');
    }
    if (!Value.Check(SessionClaims, request.user)) throw new DomainError('UNAUTHORIZED', 'claims do not match');
    const claims = request.user;
    request.actor = await options.resolveActor({
      userId: claims.userId,
      role: claims.role,
      participantId: claims.participantId,
      teamId: claims.teamId,
    });
  });
}, { name: 'auth' });
