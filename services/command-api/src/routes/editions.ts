/**
 * The administrators' edition commands (contracts edition-commands.ts, packages/commands
 * edition/handlers.ts):
 *
 * | route | body | answer |
 * |---|---|---|
 * | POST /admin/editions | Edition | 201 {edition: EditionView, position} |
 * | PUT /admin/editions/{year} | Edition | 200 {edition: EditionView, position} |
 * | POST /admin/editions/{year}/open | — | 200 {edition: EditionView, position} |
 * | POST /admin/editions/{year}/close | — | 200 {edition: EditionView, position} |
 *
 * Every route authenticates (401 UNAUTHORIZED) and refuses anyone but an ADMIN (403 FORBIDDEN)
 * before the body is read; the edition decider checks the role again. The body's rules are the
 * domain's (edition/validate.ts): a broken one answers its own code with the field's path,
 * `{message: 'EDITION_FEE_INVALID', field: 'fees.adultCents'}`. The view's phase is judged by
 * the app's clock (CommandService.now), the one the decisions use.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EDITION_BODY_LIMIT, EditionBody, EditionCommandAnswer, EditionYearParams, ErrorAnswer } from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import type { EditionRecord } from '@sinilill/domain';
import { requireAdmin, routeFile } from '@sinilill/http';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';
import { editionView, type EditionView } from '@sinilill/domain';

export interface EditionRouteOptions {
  commands: CommandService;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 413: ErrorAnswer, 422: ErrorAnswer };

export const editionRoutes: FastifyPluginAsyncTypebox<EditionRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  const answer = (result: { record: EditionRecord; position: number }): { edition: EditionView; position: number } => ({
    edition: editionView(result.record, commands.now().toISOString()),
    position: result.position,
  });

  app.post('/admin/editions', {
    bodyLimit: EDITION_BODY_LIMIT,
    schema: { body: EditionBody, response: { 201: EditionCommandAnswer, ...errors } },
  }, async (request, reply) => {
    const result = await runCommand(commands, request, (command) => commands.planEdition(request.body, command));
    return reply.status(201).send(answer(result));
  });

  app.put('/admin/editions/:year', {
    bodyLimit: EDITION_BODY_LIMIT,
    schema: { params: EditionYearParams, body: EditionBody, response: { 200: EditionCommandAnswer, ...errors } },
  }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.changeEdition(Number(request.params.year), request.body, command));
    return answer(result);
  });

  app.post('/admin/editions/:year/open', {
    schema: { params: EditionYearParams, response: { 200: EditionCommandAnswer, ...errors } },
  }, async (request) => answer(await runCommand(commands, request, (command) => commands.openEdition(Number(request.params.year), command))));

  app.post('/admin/editions/:year/close', {
    schema: { params: EditionYearParams, response: { 200: EditionCommandAnswer, ...errors } },
  }, async (request) => answer(await runCommand(commands, request, (command) => commands.closeEdition(Number(request.params.year), command))));
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(editionRoutes, (deps: RouteDependencies) => ({ commands: deps.commands }));
