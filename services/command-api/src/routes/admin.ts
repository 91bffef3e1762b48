/**
 * The admin console's commands (spec §2 "Admin", §6, §7 `/admin/*`):
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
 * answer that appended carries `position` for read-your-writes (0 when nothing changed); the
 * store's after-commit hook has woken the projectors (routes only translate HTTP).
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
  roleName,
  entityOf,
  idOf,
} from '@sinilill/contracts';
import { assertKeptFields, type AccountService, type CommandService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN, requireAdmin, routeFile } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import { iconBodyTooLarge, iconReference } from '../team-icon';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface AdminRouteOptions {
  commands: CommandService;
  /** Approval, the administrator's password reset and the global switches. */
  accounts: AccountService;
  /** Where uploaded team icons go (PUT /admin/team/{id}); without it an upload is INVALID_REQUEST. */
  media?: MediaStore;
}

const IdParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

/** The body's `id` must name the path's entity (spec §7 repeats it); INVALID_REQUEST otherwise. */
/** The body's `id` must be the path's (a whole §3 entity sent back): else FIELD_MISMATCH 'id'. */
function sameId(bodyId: number, pathId: number): void {
  assertKeptFields([{ field: 'id', sent: bodyId, kept: pathId }]);
}

/** Team and entry ids: integers or numeric strings (contracts loose.ts); a user's UUID is INVALID_REQUEST. */
function integerIds(ids: readonly (string | number)[]): number[] {
  return ids.map((id) => {
    if (typeof id === 'string' && !/^[1-9][0-9]{0,14}$/.test(id)) throw new DomainError('INVALID_REQUEST', 'team and entry ids are integers');
    return idOf(id);
  });
}

/** User ids: UUID strings; a number or a numeric string is INVALID_REQUEST. */
function userIds(ids: readonly (string | number)[]): string[] {
  return ids.map((id) => {
    if (typeof id !== 'string' || /^[0-9]+$/.test(id)) throw new DomainError('INVALID_REQUEST', 'user ids are UUID strings');
    return id;
  });
}

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { commands, accounts, media }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  app.put('/admin/user/:id', {
    schema: { params: AdminUserParams, body: AdminUserBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const body = request.body;
    if (body.id !== undefined || body.email !== undefined || body.participant_id !== undefined || body.role !== undefined
      || body.created_at !== undefined || body.participant !== undefined) {
      // The path's id first: it needs no look-up.
      assertKeptFields([{ field: 'id', sent: body.id, kept: request.params.id }]);
      const account = await accounts.account(request.params.id);
      if (!account.exists || account.deleted) throw new DomainError('NOT_FOUND', `user ${request.params.id}`);
      assertKeptFields([
        { field: 'email', sent: body.email, kept: account.email },
        { field: 'participant_id', sent: body.participant_id, kept: account.participantId },
        { field: 'role', sent: body.role === undefined ? undefined : roleName(body.role), kept: account.role },
        { field: 'created_at', sent: body.created_at, kept: account.registeredAt, compare: 'instant' },
        { field: 'participant.id', sent: body.participant === null ? null : body.participant?.id, kept: account.participantId },
      ]);
    }
    const result = await runCommand(commands, request, (command) => accounts.setApproval(request.params.id, body.is_approved, command));
    return { success: true, position: result.position };
  });

  app.put('/admin/participant/:id', {
    schema: { params: IdParams, body: AdminParticipantBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const participantId = Number(request.params.id);
    const body = request.body;
    const { is_paid: isPaid, full_name: fullName } = body;
    if (isPaid === undefined && (fullName === undefined || fullName === null)) {
      throw new DomainError('INVALID_REQUEST', 'is_paid or full_name is needed');
    }
    if (fullName === null) throw new DomainError('INVALID_REQUEST', 'full_name cannot be null');
    assertKeptFields([{ field: 'id', sent: body.id, kept: participantId }]);
    const participant = await commands.participant(participantId);
    if (!participant.exists || participant.deleted) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
    assertKeptFields([
      { field: 'created_at', sent: body.created_at, kept: participant.registeredAt, compare: 'instant' },
      { field: 'team.id', sent: body.team === null ? null : body.team?.id, kept: participant.teamId },
      ...(body.team?.team_name !== undefined
        ? [{ field: 'team.team_name', sent: body.team.team_name, kept: participant.teamId === null ? null : (await commands.team(participant.teamId)).teamName }]
        : []),
    ]);
    // One shape alone: applied as is. Both (a whole Participant): each only where it differs.
    const both = isPaid !== undefined && fullName !== undefined;
    const rename = fullName !== undefined && (!both || fullName !== participant.fullName);
    const mark = isPaid !== undefined && (!both || isPaid !== participant.isPaid);
    const result = await runCommand(commands, request, async (command) => {
      let position = 0;
      if (rename) position = (await commands.renameParticipant(participantId, fullName, command)).position;
      if (mark) {
        // A second command of the same request: its own command id, so neither reads as the other's repeat.
        const second = rename ? { ...command, metadata: { ...command.metadata, commandId: `${command.metadata.commandId}:payment` } } : command;
        position = (await commands.markPayment(participantId, isPaid, second)).position;
      }
      return { position };
    });
    return { success: true, position: result.position };
  });

  app.put('/admin/team/:id', {
    bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT,
    schema: { params: IdParams, body: AdminTeamBody, response: { 200: AdminTeamAnswer, 413: ErrorAnswer, ...errors } },
    errorHandler: iconBodyTooLarge,
  }, async (request) => {
    const teamId = Number(request.params.id);
    const body = request.body;
    sameId(body.id, teamId);
    if (body.join_code !== undefined || body.created_at !== undefined) {
      const team = await commands.team(teamId);
      if (!team.exists || team.deleted) throw new DomainError('NOT_FOUND', `team ${teamId}`);
      assertKeptFields([
        { field: 'join_code', sent: body.join_code, kept: team.joinCode },
        { field: 'created_at', sent: body.created_at, kept: team.registeredAt, compare: 'instant' },
      ]);
    }
    const icon = await iconReference(body.icon, teamId, commands, media);
    const result = await runCommand(commands, request, (command) => commands.changeTeamAsAdmin(teamId, {
      ...(body.team_name !== undefined ? { teamName: body.team_name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(icon !== undefined ? { icon } : {}),
    }, command));
    return { success: true, team: result.team, position: result.position };
  });

  app.put('/admin/deleteentities/:entity', {
    schema: { params: AdminEntityParams, body: AdminDeleteEntitiesBody, response: { 200: AdminDeleteEntitiesAnswer, ...errors } },
  }, async (request) => {
    const { ids } = request.body;
    // Spec §7 "entity user, team or entry" read tolerantly: any case, singular or plural (contracts loose.ts).
    const entity = entityOf(request.params.entity);
    const result = await runCommand(commands, request, (command) => entity === 'user'
      ? commands.deleteUsers(userIds(ids), command)
      : entity === 'team'
        ? commands.deleteTeams(integerIds(ids), command)
        : commands.deleteEntries(integerIds(ids), command));
    return { success: true, count: result.count, position: result.position };
  });

  app.post('/admin/resetpassword', {
    schema: { body: AdminResetPasswordBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => accounts.adminResetPassword(request.body.userId, request.body.newPassword, command));
    return { success: true, position: result.position };
  });

  app.put('/admin/settings', {
    schema: { body: AdminSettingsBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => accounts.changeSettings(request.body, command));
    return { success: true, position: result.position };
  });

  // an administrator's decision about an event the projections parked, recorded as an
  // event in stream `operations` (ProjectionEventRetryRequested, ProjectionEventSkipped); the
  // projections act on it when they reach it. 404 NOT_FOUND when the log has no event there.
  app.post('/admin/parked/:position/retry', {
    schema: { params: ParkedPositionParams, body: ParkedRetryBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const input = { position: Number(request.params.position), projection: request.body.projection ?? null };
    const result = await runCommand(commands, request, (command) => accounts.retryParkedEvent(input, command));
    return { success: true, position: result.position };
  });

  app.post('/admin/parked/:position/skip', {
    schema: { params: ParkedPositionParams, body: ParkedSkipBody, response: { 200: AdminSuccessAnswer, ...errors } },
  }, async (request) => {
    const input = { position: Number(request.params.position), projection: request.body.projection ?? null, reason: request.body.reason ?? '' };
    const result = await runCommand(commands, request, (command) => accounts.skipParkedEvent(input, command));
    return { success: true, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the AccountService (approvals, resets and switches go through it). */
export default routeFile(adminRoutes, (deps: RouteDependencies) => (deps.accounts ? { commands: deps.commands, accounts: deps.accounts, ...(deps.media ? { media: deps.media } : {}) } : null));
