/**
 * The admin console's reads (spec §2 "Admin", §7 GET /admin/userdata, /admin/teamdata,
 * /admin/entrydata): every account with its participant and team (admin-directory), every team
 * with its join code (team-stats, team-directory), every entry with its member's and team's names
 * (team-directory, team-stats). Administrators only (requireAdmin): 401 UNAUTHORIZED without a
 * valid token, 403 FORBIDDEN otherwise. The console searches, sorts and pages in the browser
 * (spec §2: 50 per page over lists of about a thousand rows), so each call answers everything in
 * its default order. Administrators: authenticate checks an ADMIN claim against the account's
 * event stream (issue 13), so a demoted, unapproved or deleted administrator's token reads
 * nothing from the moment of the change, not once the read models catch up.
 *
 * GET /admin/parked (issue 13) lists the events the projections parked (open ones, or `?status=all`
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
  type AdminUser,
} from '@sinilill/contracts';
import { fromHundredths } from '@sinilill/domain';
import { requireAdmin } from '@sinilill/http';
import { countParkedEvents, projections, readParkedEvents, type ReadModelDatabase } from '@sinilill/read-models';

export interface AdminRouteOptions {
  db: Kysely<ReadModelDatabase>;
}

const refusals = { 401: ErrorAnswer, 403: ErrorAnswer };
const queryRefusals = { 400: ErrorAnswer, ...refusals };

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { db }) => {
  const rm = db.withSchema('rm');
  const onRequest = [app.authenticate, requireAdmin];

  /** Accounts, newest participant first (spec §2 users tab default sort); accounts without one last. */
  app.get('/admin/userdata', { onRequest, schema: { response: { 200: AdminUsersAnswer, ...refusals } } }, async () => {
    const rows = await rm.selectFrom('admin_users').selectAll()
      .orderBy('participant_created_at', (ob) => ob.desc().nullsLast())
      .orderBy('created_at', 'desc').orderBy('user_id')
      .execute();
    const users: AdminUser[] = rows.map((u) => ({
      id: u.user_id,
      email: u.email,
      is_approved: u.approved,
      role: u.role === 'ADMIN' ? 'ADMIN' : 'USER',
      participant_id: u.participant_id,
      created_at: u.created_at.toISOString(),
      // participant_created_at is set exactly while the account has a live participant.
      participant: u.participant_id === null || u.participant_created_at === null ? null : {
        id: u.participant_id,
        full_name: u.full_name,
        is_paid: u.is_paid,
        created_at: u.participant_created_at.toISOString(),
        team: u.team_id === null || u.team_name === null ? null : { id: u.team_id, team_name: u.team_name },
      },
    }));
    return { users };
  });

  /** Teams by name (spec §2 teams tab default sort). */
  app.get('/admin/teamdata', { onRequest, schema: { response: { 200: AdminTeamsAnswer, ...refusals } } }, async () => {
    const rows = await rm.selectFrom('team_stats as t')
      .leftJoin('team_join_codes as c', 'c.team_id', 't.team_id')
      .select(['t.team_id', 't.team_name', 't.icon', 't.description', 'c.join_code', 't.participants', 't.distance', 't.created_at'])
      .orderBy('t.team_name').orderBy('t.team_id')
      .execute();
    return {
      teams: rows.map((t) => ({
        id: t.team_id, team_name: t.team_name, icon: t.icon, description: t.description, join_code: t.join_code,
        participant_count: t.participants, distance: t.distance, created_at: t.created_at.toISOString(),
      })),
    };
  });

  /**
   * Parked events (issue 13), by position: open ones, or every one with `?status=all`; at most
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
    const rows = await rm.selectFrom('team_entries as e')
      .leftJoin('team_members as m', 'm.participant_id', 'e.participant_id')
      .leftJoin('team_stats as t', 't.team_id', 'e.team_id')
      .select(['e.entry_id', 'e.team_id', 'e.participant_id', 'e.distance_hundredths', 'e.entry_type', 'e.performed_at', 'e.created_at', 'm.full_name', 't.team_name'])
      .orderBy('e.created_at', 'desc').orderBy('e.entry_id', 'desc')
      .execute();
    return {
      entries: rows.map((e) => ({
        id: e.entry_id, team_id: e.team_id, participant_id: e.participant_id,
        distance: fromHundredths(e.distance_hundredths), entry_type: e.entry_type, performed_at: e.performed_at,
        created_at: e.created_at.toISOString(),
        participant: { full_name: e.full_name ?? null }, team: { team_name: e.team_name ?? null },
      })),
    };
  });
};
