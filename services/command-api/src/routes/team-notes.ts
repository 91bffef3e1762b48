/**
 * An administrator's note about a team: POST /admin/team/{id}/note {note} → {success, position}.
 * ADMIN only: authenticated (401 UNAUTHORIZED) and refused to anyone else (403 FORBIDDEN) before
 * the body is read; the team decider checks the role again, the team (404 NOT_FOUND) and the note
 * (400 INVALID_REQUEST when blank, VALUE_TOO_LONG over TEAM_NOTE_MAX characters).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { CommandService } from '@sinilill/commands';
import { AdminSuccessAnswer, ErrorAnswer } from '@sinilill/contracts';
import { ID_PATTERN, requireAdmin, routeFile } from '@sinilill/http';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface TeamNoteRouteOptions {
  commands: CommandService;
}

const TeamNoteParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const TeamNoteBody = Type.Object({ note: Type.String() }, { additionalProperties: false });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

export const teamNoteRoutes: FastifyPluginAsyncTypebox<TeamNoteRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  app.post('/admin/team/:id/note', { schema: { params: TeamNoteParams, body: TeamNoteBody, response: { 200: AdminSuccessAnswer, ...errors } } }, async (request) => {
    const teamId = Number(request.params.id);
    const result = await runCommand(commands, request, (command) => commands.recordTeamNote(teamId, request.body.note, command));
    return { success: true, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(teamNoteRoutes, (deps: RouteDependencies) => ({ commands: deps.commands }));
