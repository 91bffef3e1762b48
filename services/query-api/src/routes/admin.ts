/**
 * The admin console's reads (spec §2 "Admin", §7 GET /admin/userdata, /admin/teamdata,
 * /admin/entrydata): every account with its participant and team (admin-directory), every team
 * with its join code (team-stats, team-directory), every entry with its member's and team's names
 * (team-directory, team-stats). Administrators only (requireAdmin): 401 UNAUTHORIZED without a
 * valid token, 403 FORBIDDEN otherwise. Each of these calls answers everything in its default
 * order, for clients written from the spec; the console pages, sorts and searches on the server
 * (GET /admin/users, /admin/teams, /admin/entries and their CSV downloads,
 * admin-pages.ts, registered here; the row mappings are shared with it). Administrators:
 * authenticate checks an ADMIN claim against the account's event stream, so a
 * demoted, unapproved or deleted administrator's token reads nothing from the moment of the
 * change, not once the read models catch up.
 *
 * GET /admin/parked lists the events the projections parked (open ones, or `?status=all`
 * with the resolved ones) and counts the open ones per projection: the metric an operator watches.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  AdminEntriesAnswer,
  AdminTeamsAnswer,
  AdminUsersAnswer,
  ErrorAnswer,
  PARKED_LIST_LIMIT,
  ParkedEventsAnswer,
  ParkedQuery,
} from '@sinilill/contracts';
import { requireAdmin } from '@sinilill/http';
import { countParkedEvents, projections, readParkedEvents, type ReadModelDatabase } from '@sinilill/read-models';
import { adminEntryRows, adminPageRoutes, adminTeamRows, toAdminEntry, toAdminTeam, toAdminUser } from './admin-pages';

export interface AdminRouteOptions {
  db: Kysely<ReadModelDatabase>;
}

const refusals = { 401: ErrorAnswer, 403: ErrorAnswer };
const queryRefusals = { 400: ErrorAnswer, ...refusals };

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { db }) => {
  const rm = db.withSchema('rm');
  const onRequest = [app.authenticate, requireAdmin];
  // The same tables paged, sorted and searched on the server, and their CSV downloads.
  await app.register(adminPageRoutes, { db });

  /** Accounts, newest participant first (spec §2 users tab default sort); accounts without one last. */
  app.get('/admin/userdata', { onRequest, schema: { response: { 200: AdminUsersAnswer, ...refusals } } }, async () => {
    const rows = await rm.selectFrom('admin_users').selectAll()
      .orderBy('participant_created_at', (ob) => ob.desc().nullsLast())
      .orderBy('created_at', 'desc').orderBy('user_id')
      .execute();
    return { users: rows.map(toAdminUser) };
  });

  /** Teams by name (spec §2 teams tab default sort). */
  app.get('/admin/teamdata', { onRequest, schema: { response: { 200: AdminTeamsAnswer, ...refusals } } }, async () => {
    const rows = await adminTeamRows(rm).orderBy('t.team_name').orderBy('t.team_id').execute();
    return { teams: rows.map(toAdminTeam) };
  });

  /**
   * Parked events, by position: open ones, or every one with `?status=all`; at most
   * PARKED_LIST_LIMIT. `counts`: open parks per projection, every projection listed.
   */
  app.get('/admin/parked', {
    onRequest, schema: { querystring: ParkedQuery, response: { 200: ParkedEventsAnswer, ...queryRefusals } },
  }, async (request) => {
    const [events, counts] = await Promise.all([
      readParkedEvents(db, { all: request.query.status === 'all', limit: PARKED_LIST_LIMIT }),
      countParkedEvents(db, projections.map((p) => p.name)),
    ]);
    return { events, counts };
  });

  /** Entries, newest created first (spec §2 entries tab default sort). */
  app.get('/admin/entrydata', { onRequest, schema: { response: { 200: AdminEntriesAnswer, ...refusals } } }, async () => {
    const rows = await adminEntryRows(rm).orderBy('e.created_at', 'desc').orderBy('e.entry_id', 'desc').execute();
    return { entries: rows.map(toAdminEntry) };
  });
};
