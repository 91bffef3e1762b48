/**
 * Announcements (contracts/announcements.ts):
 *
 * - POST /admin/announcements (ADMIN; 401/403 otherwise): records and starts sending an
 *   announcement, answers `{ announcementId }`.
 * - GET /admin/queues/announcements/recipients?audience= (ADMIN): how many the audience has now,
 *   per language, for the console to show before sending.
 * - POST /admin/announcements/test (ADMIN): the text once in each language to the caller's own
 *   address only, marked as a test; nothing recorded or queued.
 * - GET /admin/queues/announcements (ADMIN): the latest announcements and their progress, from
 *   the mail queue's counts in Redis (the gateway and nginx send /api/admin/queues* here).
 * - POST /unsubscribe `{ token }` (no login; the public page) and POST /unsubscribe/{token} (no
 *   login; RFC 8058 one-click, whatever the body: mail clients post the form
 *   `List-Unsubscribe=One-Click`): the participant gets no more newsletter mails.
 *   400 INVALID_UNSUBSCRIBE_LINK for a forged link or an erased person.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnnouncementCreated,
  AnnouncementList,
  AnnouncementRecipients,
  AnnouncementRecipientsQuery,
  AnnouncementRequest,
  AnnouncementTestRequest,
  AnnouncementTestSent,
  ErrorAnswer,
  UnsubscribeParams,
  UnsubscribeRequest,
  Unsubscribed,
} from '@sinilill/contracts';
import { perAddress, requireAdmin, routeFile, type Limit } from '@sinilill/http';
import type { Announcements } from '../announcements';
import { commandRequest } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface AnnouncementRouteOptions {
  announcements: Announcements;
  /** Unsubscriptions per client address, both routes together (docs/decisions/0108); none when absent. */
  unsubscribeLimit?: Limit;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer };

export const announcementRoutes: FastifyPluginAsyncTypebox<AnnouncementRouteOptions> = async (app, { announcements, unsubscribeLimit }) => {
  // One budget for the page's POST and the mail client's one-click POST.
  const unsubscribes = perAddress('unsubscribe', unsubscribeLimit);
  const adminOnly = { onRequest: [app.authenticate, requireAdmin] };

  app.post('/admin/announcements', {
    ...adminOnly,
    schema: { body: AnnouncementRequest, response: { 200: AnnouncementCreated, ...errors } },
  }, async (request) => {
    // With an Idempotency-Key a retried publication answers the first one's id and mails nobody twice.
    return announcements.publish(request.body, { userId: request.actor.userId, role: 'ADMIN' }, commandRequest(request).metadata);
  });

  app.get('/admin/queues/announcements/recipients', {
    ...adminOnly,
    schema: { querystring: AnnouncementRecipientsQuery, response: { 200: AnnouncementRecipients, ...errors } },
  }, async (request) => announcements.recipients(request.query.audience));

  app.post('/admin/announcements/test', {
    ...adminOnly,
    schema: { body: AnnouncementTestRequest, response: { 200: AnnouncementTestSent, ...errors, 404: ErrorAnswer } },
  }, async (request) => announcements.sendTest(request.body, { userId: request.actor.userId, role: 'ADMIN' }));

  app.get('/admin/queues/announcements', {
    ...adminOnly,
    schema: { response: { 200: AnnouncementList, ...errors } },
  }, async () => ({ announcements: await announcements.list() }));

  app.post('/unsubscribe', {
    config: unsubscribes,
    schema: { body: UnsubscribeRequest, response: { 200: Unsubscribed, 400: ErrorAnswer } },
  }, async (request) => {
    await announcements.unsubscribe(request.body.token);
    return { unsubscribed: true as const };
  });

  // One-click (RFC 8058): the body is a form, read as text and not needed (the token is the path's).
  app.register(async (oneClick) => {
    oneClick.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    oneClick.post('/unsubscribe/:token', {
      config: unsubscribes,
      schema: { params: UnsubscribeParams, response: { 200: Unsubscribed, 400: ErrorAnswer } },
    }, async (request) => {
      await announcements.unsubscribe((request.params as { token: string }).token);
      return { unsubscribed: true as const };
    });
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the announcements. */
export default routeFile(announcementRoutes, (deps: RouteDependencies) => (deps.announcements ? { announcements: deps.announcements, unsubscribeLimit: deps.rateLimits.unsubscribesPerAddress } : null));
