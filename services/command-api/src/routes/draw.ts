/**
 * The prize draw's administrator commands (packages/commands draw.ts):
 *
 * | route | body | answer |
 * |---|---|---|
 * | POST /admin/draw/commit | {commitment, drawAt, winners} | {success, position} |
 * | POST /admin/draw/reveal | {seed} | {success, position} |
 *
 * Both authenticate (401 UNAUTHORIZED) and refuse anyone but an ADMIN (403 FORBIDDEN) before the
 * body is read; the draw decider checks the role again.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DrawCommandAnswer, DrawCommitBody, DrawRevealBody, ErrorAnswer } from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import { requireAdmin } from '@sinilill/http';
import { runCommand } from '../command-request';

export interface DrawRouteOptions {
  commands: CommandService;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 409: ErrorAnswer };

export const drawRoutes: FastifyPluginAsyncTypebox<DrawRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  app.post('/admin/draw/commit', { schema: { body: DrawCommitBody, response: { 200: DrawCommandAnswer, ...errors } } }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.commitDraw(request.body, command));
    return { success: true, position: result.position };
  });

  app.post('/admin/draw/reveal', { schema: { body: DrawRevealBody, response: { 200: DrawCommandAnswer, ...errors } } }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.revealDraw(request.body, command));
    return { success: true, position: result.position };
  });
};
