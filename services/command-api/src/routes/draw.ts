/**
 * The prize draw's administrator commands (packages/commands draw.ts):
 *
 * | route | body | answer |
 * |---|---|---|
 * | POST /admin/draw/commit[?year=YYYY] | {commitment, drawAt, winners} | {success, position} |
 * | POST /admin/draw/reveal[?year=YYYY] | {seed} | {success, position} |
 *
 * Both act on the current edition's draw (stream `draw-{year}`), or on `year`'s (404 NOT_FOUND
 * for an unknown edition).
 *
 * Both authenticate (401 UNAUTHORIZED) and refuse anyone but an ADMIN (403 FORBIDDEN) before the
 * body is read; the draw decider checks the role again.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DrawCommandAnswer, DrawCommitBody, DrawRevealBody, DrawYearQuery, ErrorAnswer } from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import { requireAdmin, routeFile } from '@sinilill/http';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface DrawRouteOptions {
  commands: CommandService;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer };

const yearOf = (query: DrawYearQuery): number | undefined => (query.year === undefined ? undefined : Number(query.year));

export const drawRoutes: FastifyPluginAsyncTypebox<DrawRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  app.post('/admin/draw/commit', { schema: { querystring: DrawYearQuery, body: DrawCommitBody, response: { 200: DrawCommandAnswer, ...errors } } }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.commitDraw(request.body, command, yearOf(request.query)));
    return { success: true, position: result.position };
  });

  app.post('/admin/draw/reveal', { schema: { querystring: DrawYearQuery, body: DrawRevealBody, response: { 200: DrawCommandAnswer, ...errors } } }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.revealDraw(request.body, command, yearOf(request.query)));
    return { success: true, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(drawRoutes, (deps: RouteDependencies) => ({ commands: deps.commands }));
