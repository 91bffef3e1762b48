/**
 * Moderation decisions: POST /admin/review {ids, decision: approve|reject,
 * note} → {success, count, position}. ADMIN only: authenticated (401 UNAUTHORIZED) and refused to
 * anyone else (403 FORBIDDEN) before the body is read; the entry decider checks the role again.
 * All ids are decided in one atomic append: one entry not awaiting a decision answers 409
 * ENTRY_NOT_UNDER_REVIEW and decides none.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CommandService } from '@sinilill/commands';
import { ErrorAnswer, ReviewDecisionAnswer, ReviewDecisionBody } from '@sinilill/contracts';
import { requireAdmin } from '@sinilill/http';
import { runCommand } from '../command-request';

export interface ModerationRouteOptions {
  commands: CommandService;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

export const moderationRoutes: FastifyPluginAsyncTypebox<ModerationRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  app.post('/admin/review', { schema: { body: ReviewDecisionBody, response: { 200: ReviewDecisionAnswer, ...errors } } }, async (request) => {
    const { ids, decision, note } = request.body;
    const result = await runCommand(commands, request, (command) => commands.reviewEntries({ entryIds: ids, decision, note }, command));
    return { success: true as const, count: result.count, position: result.position };
  });
};
