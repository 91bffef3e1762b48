/**
 * Returning participants (contracts returning.ts; docs/decisions/0083):
 *
 * - POST /me/editions/{year}/join: the logged-in person joins the edition taking registrations
 *   with the account they have (AccountService.joinEdition). The account's earlier sessions end
 *   with the join; the caller gets a new one at once, as a login gives it: the refresh cookie and
 *   a new access token (`token`) naming the new participant and team.
 * - POST /team/{id}/invite-returning: a member of a re-opened team mails the earlier team's
 *   members who have not joined the new edition (AccountService.inviteReturning).
 *
 * Both need a valid session (401 UNAUTHORIZED); who may do what is the handlers' (from the log,
 * not from the token's claims).
 */
import type {} from '@fastify/jwt'; // app.jwt's type (the authPlugin registers it)
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AccountService, CommandService } from '@sinilill/commands';
import type { SharedCache } from '@sinilill/payments';
import { ErrorAnswer, InviteReturningAnswer, JoinEditionAnswer, JoinEditionBody, JoinEditionParams } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import { commandRequest, runCommand } from '../command-request';
import { localSharedCache, onceWithKeptAnswer } from '../shared-cache';
import type { RouteDependencies } from '../dependencies';
import { setRefreshCookie } from './session';

export interface ReturningRouteOptions {
  commands: CommandService;
  accounts: AccountService;
  /** Where the invitations' answers are kept for retries under the same Idempotency-Key; default: this process's memory. */
  keptAnswers?: SharedCache;
}

const TeamParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

export const returningRoutes: FastifyPluginAsyncTypebox<ReturningRouteOptions> = async (app, { commands, accounts, keptAnswers }) => {
  const kept = keptAnswers ?? localSharedCache();
  app.addHook('onRequest', app.authenticate);

  app.post('/me/editions/:year/join', {
    schema: { params: JoinEditionParams, body: JoinEditionBody, response: { 201: JoinEditionAnswer, ...errors } },
  }, async (request, reply) => {
    const userId = request.actor.userId;
    if (userId === null) throw new DomainError('UNAUTHORIZED', 'not an account');
    const result = await runCommand(commands, request, (command) => accounts.joinEdition(Number(request.params.year), request.body, command));
    // The join ended the account's sessions (their claims name the earlier participant).
    const session = await accounts.renewSession(userId);
    setRefreshCookie(reply, session);
    return reply.code(201).send({
      participantId: result.participantId, teamId: result.teamId, joinCode: result.joinCode,
      token: app.jwt.sign(session.claims), position: result.position,
    });
  });

  app.post('/team/:id/invite-returning', {
    schema: { params: TeamParams, response: { 200: InviteReturningAnswer, ...errors } },
  }, async (request) => {
    // The invitations leave no event: with an Idempotency-Key the first answer is kept, and a
    // retry answers it and mails nobody twice.
    const command = commandRequest(request);
    return commands.idempotent(command, () => onceWithKeptAnswer(kept, command.metadata, () => accounts.inviteReturning(Number(request.params.id), command)));
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the AccountService. */
export default routeFile(returningRoutes, (deps: RouteDependencies) => (deps.accounts
  ? { commands: deps.commands, accounts: deps.accounts, ...(deps.keptAnswers ? { keptAnswers: deps.keptAnswers } : {}) }
  : null));
