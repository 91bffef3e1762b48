/**
 * Strava sync (docs/decisions/0095; contracts strava.ts for the shapes):
 *
 * - GET /me/strava, POST /me/strava/connect, PUT /me/strava, DELETE /me/strava, and a proposal's
 *   POST /me/strava/proposals/{activityId}/confirm and DELETE /me/strava/proposals/{activityId}:
 *   the logged-in participant's own connection (401 UNAUTHORIZED without a valid token, 403
 *   FORBIDDEN for an account without a participant, an administrator's).
 * - GET /strava/callback: Strava's OAuth redirect. The browser arrives without our access token,
 *   so the signed `state` names the member (strava-state.ts); the answer is always a 303 to the
 *   account page: ?strava=connected, ?strava=denied (the member refused, or did not grant
 *   activity:read), or ?strava=error (&reason=CODE).
 * - GET /strava/webhook (the subscription's handshake: the hub.challenge echoed only for our
 *   verify token, else 403) and POST /strava/webhook (an event: validated, queued under a job id of
 *   its own, answered 200 at once, well within Strava's 2 s; the work runs in the `strava` worker).
 *
 * Without Strava configured GET /me/strava answers `available: false` and the rest
 * STRAVA_NOT_CONFIGURED (404).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { STRAVA_SCOPE, type CommandService, type StravaConnection } from '@sinilill/commands';
import {
  EntryAnswer,
  ErrorAnswer,
  StravaConfirmBody,
  StravaConnectAnswer,
  StravaConnectBody,
  StravaConnectionAnswer,
  StravaModeBody,
  StravaProposalParams,
  StravaStatusAnswer,
  StravaWebhookEvent,
} from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { routeFile } from '@sinilill/http';
import { runCommand } from '../command-request';
import type { RouteDependencies, StravaRouteDependencies } from '../dependencies';
import { STRAVA_STATE_SECONDS, sameToken, signStravaState, stravaStateKey, verifyStravaState } from '../strava-state';

export interface StravaRouteOptions {
  commands: CommandService;
  jwtSecret: string;
  /** Null: Strava is not configured. */
  strava: StravaRouteDependencies | null;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer, 502: ErrorAnswer, 503: ErrorAnswer };

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 512 })),
  scope: Type.Optional(Type.String({ maxLength: 512 })),
  state: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 512 })),
});
const HandshakeQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 64 })),
  'hub.verify_token': Type.Optional(Type.String({ maxLength: 512 })),
  'hub.challenge': Type.Optional(Type.String({ maxLength: 512 })),
});

/** The scopes that let us read the member's activities (activity:read_all includes activity:read). */
function grantsActivities(scope: string | undefined): boolean {
  const granted = (scope ?? '').split(/[\s,]+/);
  return granted.includes('activity:read') || granted.includes('activity:read_all');
}

/** A connection as answered: without the ids of the account and participant. */
function answered(connection: StravaConnection): Omit<StravaConnection, 'userId' | 'participantId'> {
  const { userId: _userId, participantId: _participantId, ...view } = connection;
  return view;
}

function configured(strava: StravaRouteDependencies | null): StravaRouteDependencies {
  if (!strava) throw new DomainError('STRAVA_NOT_CONFIGURED', 'STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET are not set');
  return strava;
}

/** The acting participant's account and participant id. @throws DomainError FORBIDDEN for anyone else. */
function member(request: FastifyRequest): { userId: string; participantId: number } {
  const { userId, participantId, role } = request.actor;
  if (userId === null || participantId === null || role !== 'USER') throw new DomainError('FORBIDDEN', 'only a participant connects Strava');
  return { userId, participantId };
}

export const stravaRoutes: FastifyPluginAsyncTypebox<StravaRouteOptions> = async (app, { commands, jwtSecret, strava }) => {
  const stateKey = stravaStateKey(jwtSecret);

  app.get('/me/strava', {
    onRequest: [app.authenticate],
    schema: { response: { 200: StravaStatusAnswer, ...errors } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!strava) return { available: false, connection: null, proposals: [] };
    const { userId } = member(request);
    const connection = await strava.connections.get(userId);
    const proposals = connection?.status === 'connected' ? await strava.connections.proposals(userId) : [];
    return { available: true, connection: connection ? answered(connection) : null, proposals };
  });

  app.post('/me/strava/connect', {
    onRequest: [app.authenticate],
    schema: { body: StravaConnectBody, response: { 200: StravaConnectAnswer, ...errors } },
  }, async (request) => {
    const { authorizeUrl, publicUrl } = configured(strava);
    const { userId, participantId } = member(request);
    const state = signStravaState(stateKey, { userId, participantId, mode: request.body.mode, expiresAt: Date.now() + STRAVA_STATE_SECONDS * 1000 });
    return { authorizeUrl: authorizeUrl(`${publicUrl}/api/strava/callback`, state, STRAVA_SCOPE) };
  });

  app.get('/strava/callback', {
    schema: { querystring: CallbackQuery, response: { ...errors } },
  }, async (request, reply) => {
    const account = (outcome: string, reason?: string) => reply.redirect(`${strava?.publicUrl ?? ''}/account?strava=${outcome}${reason ? `&reason=${reason}` : ''}`, 303);
    if (!strava) return account('error', 'STRAVA_NOT_CONFIGURED');
    const { code, scope, state, error } = request.query;
    let claims;
    try {
      claims = verifyStravaState(stateKey, state, Date.now());
    } catch (refusal) {
      if (refusal instanceof DomainError) return account('error', refusal.code);
      throw refusal;
    }
    if (error !== undefined || !grantsActivities(scope)) return account('denied');
    if (!code) return account('error', 'STRAVA_STATE_INVALID');
    try {
      await strava.sync.connect({ userId: claims.userId, participantId: claims.participantId, mode: claims.mode, code, scope: scope ?? '' });
    } catch (failure) {
      request.log.warn({ err: failure }, 'Strava connection failed');
      return account('error', failure instanceof DomainError ? failure.code : 'STRAVA_UNAVAILABLE');
    }
    return account('connected');
  });

  app.put('/me/strava', {
    onRequest: [app.authenticate],
    schema: { body: StravaModeBody, response: { 200: StravaConnectionAnswer, ...errors } },
  }, async (request) => {
    const { connections } = configured(strava);
    const { userId } = member(request);
    const connection = await connections.setMode(userId, request.body.mode, commands.now());
    if (!connection || connection.status !== 'connected') throw new DomainError('STRAVA_NOT_CONNECTED');
    return { connection: answered(connection) };
  });

  app.delete('/me/strava', {
    onRequest: [app.authenticate],
    schema: { response: { 200: StravaConnectionAnswer, ...errors } },
  }, async (request) => {
    const { sync } = configured(strava);
    const { userId } = member(request);
    return { connection: answered(await sync.disconnect(userId)) };
  });

  app.post('/me/strava/proposals/:activityId/confirm', {
    onRequest: [app.authenticate],
    schema: { params: StravaProposalParams, body: StravaConfirmBody, response: { 200: EntryAnswer, ...errors } },
  }, async (request) => {
    const { sync, connections } = configured(strava);
    const { userId } = member(request);
    const connection = await connections.get(userId);
    if (!connection || connection.status !== 'connected') throw new DomainError('STRAVA_NOT_CONNECTED');
    const result = await runCommand(commands, request, (command) => sync.confirm(userId, Number(request.params.activityId), request.body.entry_type, command), { checkedByCommand: true });
    return { success: true, entry: result.entry, position: result.position };
  });

  app.delete('/me/strava/proposals/:activityId', {
    onRequest: [app.authenticate],
    schema: { params: StravaProposalParams, response: { 204: Type.Null(), ...errors } },
  }, async (request, reply) => {
    const { connections } = configured(strava);
    const { userId } = member(request);
    if (!(await connections.dropProposal(Number(request.params.activityId), userId))) throw new DomainError('NOT_FOUND', 'no such Strava proposal');
    return reply.code(204).send(null);
  });

  app.get('/strava/webhook', {
    schema: { querystring: HandshakeQuery, response: { 200: Type.Object({ 'hub.challenge': Type.String() }), ...errors } },
  }, async (request) => {
    const { verifyToken } = configured(strava);
    const query = request.query;
    if (query['hub.mode'] !== 'subscribe' || query['hub.challenge'] === undefined || !sameToken(query['hub.verify_token'] ?? '', verifyToken)) {
      throw new DomainError('FORBIDDEN', 'not our webhook subscription');
    }
    return { 'hub.challenge': query['hub.challenge'] };
  });

  app.post('/strava/webhook', {
    schema: { body: StravaWebhookEvent, response: { 200: Type.Object({ received: Type.Boolean() }), ...errors } },
  }, async (request) => {
    const { enqueue } = configured(strava);
    const event = request.body;
    try {
      if (event.object_type === 'activity') {
        await enqueue({ kind: 'activity', athleteId: event.owner_id, activityId: event.object_id, aspect: event.aspect_type, eventTime: event.event_time });
      } else if (event.updates?.['authorized'] === 'false' || event.updates?.['authorized'] === false) {
        await enqueue({ kind: 'deauthorize', athleteId: event.owner_id, eventTime: event.event_time });
      }
    } catch (failure) {
      // Strava delivers again when it gets no 200 (up to three times): a 503 loses nothing.
      request.log.error({ err: failure }, 'Strava event not queued');
      throw new DomainError('SERVICE_UNAVAILABLE', 'the Strava queue does not answer');
    }
    return { received: true };
  });
};

/** Served under /api by being in routes/ (route-files.ts); always, so that an unconfigured site answers STRAVA_NOT_CONFIGURED. */
export default routeFile(stravaRoutes, (deps: RouteDependencies) => ({ commands: deps.commands, jwtSecret: deps.jwtSecret, strava: deps.strava ?? null }));
