/**
 * Team card and join code commands (spec §2 team page, §7): PUT /team/{id}/publicattributes and
 * GET /team/{id}/newcode. Both only for a member of the team or an admin (401 UNAUTHORIZED
 * without a valid token, 403 FORBIDDEN for anyone else); each answer carries `position` for
 * read-your-writes.
 *
 * An uploaded icon (a data URL in the JSON body) is checked by content, re-encoded to a 256×256
 * WebP and stored in the media store; the event records only its URL path. Who may change the
 * team is checked before the body is even read, so a stranger's 5 MB upload costs no decoding.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import {
  ErrorAnswer,
  JoinCodeAnswer,
  PUBLIC_ATTRIBUTES_BODY_LIMIT,
  PublicAttributesAnswer,
  PublicAttributesBody,
} from '@sinilill/contracts';
import { assertKeptFields, type CommandService } from '@sinilill/commands';
import { DomainError, mayActForTeam } from '@sinilill/domain';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import type { MediaStore } from '@sinilill/media';
import { iconBodyTooLarge, iconReference } from '../team-icon';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface TeamRouteOptions {
  commands: CommandService;
  /** Where uploaded icons go. Without it an icon upload is refused (INVALID_REQUEST); removal and descriptions still work. */
  media?: MediaStore;
}

const ID = new RegExp(ID_PATTERN);

/**
 * Compares the identity fields of a whole §3 Team sent along (EchoedTeamFields) with the stored
 * team; runs after mayActForPathTeam, so only a member or an admin learns of a mismatch.
 * @throws DomainError FIELD_MISMATCH naming the field, NOT_FOUND for an unknown or deleted team
 *   when anything was echoed.
 */
async function assertEchoedTeam(
  body: { id?: number; team_name?: string; join_code?: string | null; created_at?: string | null },
  teamId: number,
  commands: CommandService,
): Promise<void> {
  if (body.id === undefined && body.team_name === undefined && body.join_code === undefined && body.created_at === undefined) return;
  const team = await commands.team(teamId);
  if (!team.exists || team.deleted) throw new DomainError('NOT_FOUND', `team ${teamId}`);
  assertKeptFields([
    { field: 'id', sent: body.id, kept: teamId },
    { field: 'team_name', sent: body.team_name, kept: team.teamName },
    { field: 'join_code', sent: body.join_code, kept: team.joinCode },
    { field: 'created_at', sent: body.created_at, kept: team.registeredAt, compare: 'instant' },
  ]);
}
const TeamParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

/**
 * preParsing hook: 403 FORBIDDEN unless the authenticated actor may act for the team in the path
 * (a member, an admin, the system). The deciders check it again; this one runs before the body
 * is read. A malformed id passes here and fails validation (400).
 */
async function mayActForPathTeam(request: FastifyRequest): Promise<void> {
  const { id } = request.params as { id?: unknown };
  if (typeof id === 'string' && ID.test(id) && !mayActForTeam(request.actor, Number(id))) {
    throw new DomainError('FORBIDDEN', `not allowed to change team ${id}`);
  }
}

export const teamRoutes: FastifyPluginAsyncTypebox<TeamRouteOptions> = async (app, { commands, media }) => {
  app.addHook('onRequest', app.authenticate);

  app.put('/team/:id/publicattributes', {
    bodyLimit: PUBLIC_ATTRIBUTES_BODY_LIMIT,
    preParsing: mayActForPathTeam,
    schema: { params: TeamParams, body: PublicAttributesBody, response: { 200: PublicAttributesAnswer, 413: ErrorAnswer, ...errors } },
    errorHandler: iconBodyTooLarge,
  }, async (request) => {
    const teamId = Number(request.params.id);
    await assertEchoedTeam(request.body, teamId, commands);
    const icon = await iconReference(request.body.icon, teamId, commands, media);
    const result = await runCommand(commands, request, (command) => commands.changeTeamPublicAttributes(teamId, {
      ...(icon !== undefined ? { icon } : {}),
      ...(request.body.description !== undefined ? { description: request.body.description } : {}),
    }, command));
    return { success: true, team: result.team, position: result.position };
  });

  // GET because spec §7 says so, though it changes state: never cached, no HEAD twin (a HEAD
  // request must not draw a code), and the gateway sends it to this API, not the query API.
  app.get('/team/:id/newcode', {
    exposeHeadRoute: false,
    preHandler: mayActForPathTeam,
    schema: { params: TeamParams, response: { 200: JoinCodeAnswer, ...errors } },
  }, async (request, reply) => {
    const result = await runCommand(commands, request, (command) => commands.replaceJoinCode(Number(request.params.id), command));
    reply.header('cache-control', 'no-store');
    return { code: result.code, created_at: result.createdAt, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(teamRoutes, (deps: RouteDependencies) => ({ commands: deps.commands, ...(deps.media ? { media: deps.media } : {}) }));
