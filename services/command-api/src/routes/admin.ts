/**
 * The admin console's commands (spec §2 "Admin", §6, §7 `/admin/*`; issue 6):
 *
 * | route | body | answer |
 * |---|---|---|
 * | PUT /admin/user/{id} (user UUID) | {is_approved} | {success, position} |
 * | PUT /admin/participant/{id} | {is_paid} or {id, full_name} | {success, position} |
 * | PUT /admin/team/{id} | {id, team_name?, description?, icon?} | {success, team, position} |
 * | PUT /admin/deleteentities/{user,team,entry} | {ids} | {success, count, position} |
 * | POST /admin/resetpassword | {userId, newPassword} | {success, position} |
 * | PUT /admin/settings | {registrationEnabled?, entryInsertionEnabled?} | {success, position} |
 * | POST /admin/parked/{position}/retry | {projection?} | {success, position} |
 * | POST /admin/parked/{position}/skip | {projection?, reason?} | {success, position} |
 *
 * Every route authenticates (401 UNAUTHORIZED) and then refuses anyone but an ADMIN (403
 * FORBIDDEN) in onRequest hooks, before the body is read; the deciders check the role again. An
 * answer that appended wakes the projectors and carries `position` for read-your-writes.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  AdminDeleteEntitiesAnswer,
  AdminDeleteEntitiesBody,
  AdminEntityParams,
  AdminParticipantBody,
  AdminResetPasswordBody,
  AdminSettingsBody,
  AdminSuccessAnswer,
  AdminTeamAnswer,
  AdminTeamBody,
  AdminUserBody,
  AdminUserParams,
  ErrorAnswer,
  ParkedPositionParams,
  ParkedRetryBody,
  ParkedSkipBody,
  PUBLIC_ATTRIBUTES_BODY_LIMIT,
} from '@sinilill/contracts';
import type { AccountService, CommandService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN, requireAdmin } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import { iconBodyTooLarge, iconReference } from '../team-icon';
import { runCommand } from '../command-request';

export interface AdminRouteOptions {
  commands: CommandService;
  /** Approval, the administrator's password reset and the global switches. */
  accounts: AccountService;
  /** Where uploaded team icons go (PUT /admin/team/{id}); without it an upload is INVALID_REQUEST. */
  media?: MediaStore;
  /** Called with the position after every command that appended (wakes the projectors). */
  appended: (position: number) => void;
}

const IdParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

/** The body's `id` must name the path's entity (spec §7 repeats it); INVALID_REQUEST otherwise. */
function sameId(bodyId: number, pathId: number): void {
  if (bodyId !== pathId) throw new DomainError('INVALID_REQUEST', `body id ${bodyId} differs from the path's ${pathId}`);
}

function integerIds(ids: readonly (string | number)[]): number[] {
  return ids.map((id) => {
    if (typeof id !== 'number') throw new DomainError('INVALID_REQUEST', 'team and entry ids are integers');
    return id;
  });
}

function userIds(ids: readonly (string | number)[]): string[] {
  return ids.map((id) => {
    if (typeof id !== 'string') throw new DomainError('INVALID_REQUEST', 'user ids are UUID strings');
    return id;
  });
}

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { commands, accounts, media, appended }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);
  const done = (position: number) => {
    if (position > 0) appended(position);
    return position;
  };

  app.put('/admin/user/:id', {
    schema: { params: AdminUserParams, body: AdminUserBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => accounts.setApproval(request.params.id, request.body.is_approved, command));
    return { success: true, position: done(result.position) };
  });

  app.put('/admin/participant/:id', {
    schema: { params: IdParams, body: AdminParticipantBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const participantId = Number(request.params.id);
    const body = request.body;
    if ('is_paid' in body) {
      const result = await runCommand(commands, request, (command) => commands.markPayment(participantId, body.is_paid, command));
      return { success: true, position: done(result.position) };
    }
    sameId(body.id, participantId);
    const result = await runCommand(commands, request, (command) => commands.renameParticipant(participantId, body.full_name, command));
    return { success: true, position: done(result.position) };
  });

  app.put('/admin/team/:id', {
    bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT,
    schema: { params: IdParams, body: AdminTeamBody, response: { 200: AdminTeamAnswer, 413: ErrorAnswer, ...errors } },
    errorHandler: iconBodyTooLarge,
  }, async (request) => {
    const teamId = Number(request.params.id);
    const body = request.body;
    sameId(body.id, teamId);
    const icon = await iconReference(body.icon, teamId, commands, media);
    const result = await runCommand(commands, request, (command) => commands.changeTeamAsAdmin(teamId, {
      ...(body.team_name !== undefined ? { teamName: body.team_name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(icon !== undefined ? { icon } : {}),
    }, command));
    return { success: true, team: result.team, position: done(result.position) };
  });

  app.put('/admin/deleteentities/:entity', {
    schema: { params: AdminEntityParams, body: AdminDeleteEntitiesBody, response: { 200: AdminDeleteEntitiesAnswer, ...errors } },
  }, async (request) => {
    const { ids } = request.body;
    const result = await runCommand(commands, request, (command) => request.params.entity === 'user'
      ? commands.deleteUsers(userIds(ids), command)
      : request.params.entity === 'team'
        ? commands.deleteTeams(integerIds(ids), command)
        : commands.deleteEntries(integerIds(ids), command));
    return { success: true, count: result.count, position: done(result.position) };
  });

  app.post('/admin/resetpassword', {
    schema: { body: AdminResetPasswordBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => accounts.adminResetPassword(request.body.userId, request.body.newPassword, command));
    return { success: true, position: done(result.position) };
  });

  app.put('/admin/settings', {
    schema: { body: AdminSettingsBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => accounts.changeSettings(request.body, command));
    return { success: true, position: done(result.position) };
  });

  // Issue 13: an administrator's decision about an event the projections parked, recorded as an
  // event in stream `operations` (ProjectionEventRetryRequested, ProjectionEventSkipped); the
  // projections act on it when they reach it. 404 NOT_FOUND when the log has no event there.
  app.post('/admin/parked/:position/retry', {
    schema: { params: ParkedPositionParams, body: ParkedRetryBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const input = { position: Number(request.params.position), projection: request.body.projection ?? null };
    const result = await runCommand(commands, request, (command) => accounts.retryParkedEvent(input, command));
    return { success: true, position: done(result.position) };
  });

  app.post('/admin/parked/:position/skip', {
    schema: { params: ParkedPositionParams, body: ParkedSkipBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const input = { position: Number(request.params.position), projection: request.body.projection ?? null, reason: request.body.reason ?? '' };
    const result = await runCommand(commands, request, (command) => accounts.skipParkedEvent(input, command));
    return { success: true, position: done(result.position) };
  });
};
