/**
 * The team page's reads (spec §2 "Team page", §7 GET /team/{id}…): the card, the members, the
 * entries, the join code, and a live stream of changes. Every route authenticates (401
 * UNAUTHORIZED) and answers only a member of the team or an administrator (403 FORBIDDEN; an
 * administrator asking for an unknown team gets 404 NOT_FOUND, anyone else 403: see
 * team-access.ts). GET /team/{id}/newcode is a command and lives in the command API.
 *
 * Distances in km with two decimals (exact, from hundredths); instants ISO-8601 UTC.
 *
 * Personal answers: never cached in the process and answered with
 * `Cache-Control: private, no-store`, so that no shared cache keeps them and a browser does not
 * store them. Each route declares the projections it reads (`reads`, for `x-min-position`):
 * team-directory always, since the access check reads the actor's membership there.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import Type from 'typebox';
import { ErrorAnswer, JoinCodeAnswer, TeamAnswer, TeamEntriesAnswer, TeamMembersAnswer, type FlagReason, type TeamChange } from '@sinilill/contracts';
import { DomainError, fromHundredths } from '@sinilill/domain';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import { paymentsProjection, teamDirectoryProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { TeamChangeFeed } from '../live';
import { requireTeamAccess, type AccountParticipants } from '../team-access';
import type { RouteDependencies } from '../dependencies';

export interface TeamRouteOptions {
  /** Every participant of an account: a member of a past edition's team still reads it (team-access.ts). */
  accountParticipants?: AccountParticipants;
  db: Kysely<ReadModelDatabase>;
  /** The process's change feed (live.ts). */
  changes: TeamChangeFeed;
  /** Interval of the live stream's keep-alive comment, ms (default 15 000). */
  keepAliveMs?: number;
}

/** Default interval of the live stream's `: keep-alive` comment: below common proxy idle limits (30–60 s). */
export const LIVE_KEEP_ALIVE_MS = 15_000;

const Params = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const refusals = { 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer };

/** The projections behind the routes' tables: team_stats; team_members, team_entries, team_join_codes. */
const DIRECTORY = { reads: [teamDirectoryProjection.name] };
const DIRECTORY_AND_STATS = { reads: [teamDirectoryProjection.name, teamStatsProjection.name] };
/** GET /team/{id}: also the money the team raised (fundraising_teams). */
const DIRECTORY_STATS_AND_PAYMENTS = { reads: [...DIRECTORY_AND_STATS.reads, paymentsProjection.name] };

/** One server-sent event (the format of the WHATWG HTML standard, §9.2 "Server-sent events"). */
function changeEvent(change: TeamChange): string {
  return `event: change\ndata: ${JSON.stringify({ teamId: change.teamId, position: change.position })}\n\n`;
}

export const teamRoutes: FastifyPluginAsyncTypebox<TeamRouteOptions> = async (app, { db, changes, keepAliveMs, accountParticipants }) => {
  const rm = db.withSchema('rm');
  const guard = { onRequest: [app.authenticate] };
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  app.get('/team/:id', {
    ...guard,
    config: DIRECTORY_STATS_AND_PAYMENTS,
    schema: { params: Params, response: { 200: TeamAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const row = await rm.selectFrom('team_stats')
      .leftJoin('team_join_codes', 'team_join_codes.team_id', 'team_stats.team_id')
      .leftJoin('fundraising_teams', 'fundraising_teams.team_id', 'team_stats.team_id')
      .selectAll('team_stats').select('team_join_codes.join_code')
      .select(sql<string | number | null>`fundraising_teams.fees_cents + fundraising_teams.donations_cents`.as('raised'))
      .select('fundraising_teams.unknown_count as raised_unknown')
      .where('team_stats.team_id', '=', teamId).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', `team ${teamId}`);
    return {
      id: row.team_id,
      team_name: row.team_name,
      icon: row.icon,
      description: row.description,
      join_code: row.join_code ?? null,
      participant_count: row.participants,
      distance: row.distance,
      created_at: row.created_at.toISOString(),
      prestige: row.prestige,
      inLapDistance: row.in_lap_distance,
      blueFlowers: row.blue_flowers,
      // EUR cents (bigint: pg answers a string).
      raised_cents: Number(row.raised ?? 0),
      raised_unknown_count: row.raised_unknown ?? 0,
    };
  });

  /** Members, most km first (spec §2: "default sort descending"), then by name. */
  app.get('/team/:id/participants', {
    ...guard,
    config: DIRECTORY_AND_STATS,
    schema: { params: Params, response: { 200: TeamMembersAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const rows = await rm.selectFrom('team_members').selectAll().where('team_id', '=', teamId)
      .orderBy('distance_hundredths', 'desc')
      .orderBy('full_name', (ob) => ob.asc().nullsLast())
      .orderBy('participant_id')
      .execute();
    const team = await rm.selectFrom('team_stats').select('team_name').where('team_id', '=', teamId).executeTakeFirst();
    return rows.map((m) => ({
      id: m.participant_id,
      team: { id: teamId, team_name: team?.team_name ?? null },
      full_name: m.full_name,
      is_paid: m.is_paid,
      is_captain: m.is_captain,
      distance: fromHundredths(m.distance_hundredths),
      created_at: m.created_at.toISOString(),
    }));
  });

  /** Live entries, newest created first (spec §2: "default sort created-at descending"). */
  app.get('/team/:id/entries', {
    ...guard,
    config: DIRECTORY,
    schema: { params: Params, response: { 200: TeamEntriesAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const rows = await rm.selectFrom('team_entries').selectAll().where('team_id', '=', teamId)
      .orderBy('created_at', 'desc').orderBy('entry_id', 'desc')
      .execute();
    return rows.map((e) => ({
      id: e.entry_id,
      team_id: e.team_id,
      participant_id: e.participant_id,
      distance: fromHundredths(e.distance_hundredths),
      entry_type: e.entry_type,
      performed_at: e.performed_at,
      created_at: e.created_at.toISOString(),
      // the review, only for an entry ever flagged (an optional field, spec §7 stays).
      ...(e.review_status != null ? {
        review: {
          status: e.review_status as 'flagged' | 'approved' | 'rejected',
          reasons: JSON.parse(e.review_reasons ?? '[]') as FlagReason[],
          note: e.review_note,
        },
      } : {}),
    }));
  });

  /** The team's current join code and since when (team-directory's team_join_codes). */
  app.get('/team/:id/joincode', {
    ...guard,
    config: DIRECTORY,
    schema: { params: Params, response: { 200: JoinCodeAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const row = await rm.selectFrom('team_join_codes').selectAll().where('team_id', '=', teamId).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', `join code of team ${teamId}`);
    return { code: row.join_code, created_at: row.created_at.toISOString() };
  });

  // Streams still open when the server closes: ended in preClose, or server.close() would wait
  // for them forever.
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  /**
   * Server-sent events: `event: change` with TeamChange data whenever a committed read-model batch
   * names the team (or any team), at most once per position (the client's refetch with
   * x-min-position: position waits for every projection, so an equal or lower position adds
   * nothing); a `: keep-alive` comment every keepAliveMs. The subscription ends with the
   * connection.
   */
  app.get('/team/:id/live', {
    ...guard,
    config: DIRECTORY,
    schema: { params: Params, response: refusals },
  }, async (request, reply) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    // From here the response is ours, written as the events come (Fastify docs: Reply .hijack()).
    reply.hijack();
    const res = reply.raw;
    // Headers set earlier (x-projected-position) would otherwise be lost with the hijack.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) res.setHeader(name, value);
    }
    res.writeHead(200, {
      // Exactly this media type: @fastify/reply-from lifts its request timeout only for it.
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // nginx (and proxies that honour it) would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    if (request.method === 'HEAD') {
      res.end();
      return;
    }
    // A first line flushes the headers through proxies that wait for body bytes.
    res.write(': connected\n\n');
    let lastSent = 0;
    const unsubscribe = changes.subscribe(teamId, (change) => {
      if (change.position <= lastSent) return;
      lastSent = change.position;
      res.write(changeEvent(change));
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs ?? LIVE_KEEP_ALIVE_MS);
    open.add(res);
    const cleanUp = () => {
      clearInterval(keepAlive);
      unsubscribe();
      open.delete(res);
    };
    res.once('close', cleanUp);
    res.once('error', cleanUp);
    // The client may have gone while access was checked: then 'close' has fired already.
    if (res.destroyed || !res.socket || res.socket.destroyed) cleanUp();
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(teamRoutes, (deps: RouteDependencies) => ({
  db: deps.db, changes: deps.changes, keepAliveMs: deps.liveKeepAliveMs, ...(deps.accountParticipants ? { accountParticipants: deps.accountParticipants } : {}),
}));
