/**
 * The editions on the read side (spec §1 "the yearly event"; contract @sinilill/contracts
 * edition-queries.ts):
 *
 * - GET /editions (public): the clock's instant, the current edition (EditionCatalog.current),
 *   the next announced one whose registration has not opened (EditionCatalog.next) and the
 *   archive (closed editions, newest first). Drafts (status planned) never appear.
 * - GET /admin/editions (ADMIN; 401, 403 FORBIDDEN): every edition, drafts included, oldest first.
 * - GET /history/editions/{year} (public): a closed edition's results as they stand in the read
 *   models: its figures (participants, teams, km with two decimals, flowers, money raised in EUR
 *   cents), its teams with most km first (each on its edition's own route), its route and its
 *   draw's winners (first name and team; null without a drawn draw). An edition that is not
 *   closed, or not in the log, is 404 NOT_FOUND: results are published once final.
 *
 * Each edition is shown with its phase and local day at the app's clock (editions.ts editionView).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  AdminEditionsAnswer,
  EditionHistoryAnswer,
  EditionHistoryParams,
  EditionsAnswer,
  ErrorAnswer,
} from '@sinilill/contracts';
import { DomainError, fromHundredths, teamProgress } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { requireAdmin, routeFile } from '@sinilill/http';
import { editionsProjection, paymentsProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import { editionView, type ReadModelEditions } from '../editions';
import type { RouteDependencies } from '../dependencies';
import { readDraw } from './draw';
import { editionTotals } from './stats';

export interface EditionRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  editions: ReadModelEditions;
  /** The log (the draw's stream); without it an archived edition's draw reads null. */
  store?: EventStore;
}

const EDITIONS = { reads: [editionsProjection.name] };
const RESULTS = { reads: [editionsProjection.name, teamStatsProjection.name, paymentsProjection.name] };

export const editionRoutes: FastifyPluginAsyncTypebox<EditionRouteOptions> = async (app, { db, now, editions, store }) => {
  app.get('/editions', {
    config: EDITIONS,
    schema: { response: { 200: EditionsAnswer } },
  }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    const at = now();
    const catalog = await editions.catalog();
    const iso = at.toISOString();
    const current = catalog.current(iso);
    const next = catalog.next(iso);
    return {
      now: iso,
      current: current ? editionView(current, at) : null,
      next: next ? editionView(next, at) : null,
      archive: catalog.archived().map((record) => editionView(record, at)),
    };
  });

  app.get('/admin/editions', {
    onRequest: [app.authenticate, requireAdmin],
    config: EDITIONS,
    schema: { response: { 200: AdminEditionsAnswer, 401: ErrorAnswer, 403: ErrorAnswer } },
  }, async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const at = now();
    return { editions: (await editions.catalog()).list().map((record) => editionView(record, at)) };
  });

  app.get('/history/editions/:year', {
    config: RESULTS,
    schema: { params: EditionHistoryParams, response: { 200: EditionHistoryAnswer, 400: ErrorAnswer, 404: ErrorAnswer } },
  }, async (request, reply) => {
    const year = Number(request.params.year);
    const record = (await editions.catalog()).get(year);
    if (!record || record.status !== 'closed') throw new DomainError('NOT_FOUND', `closed edition ${year}`);
    const { edition } = record;
    const [totals, teams, draw] = await Promise.all([
      editionTotals(db, year),
      db.withSchema('rm').selectFrom('team_stats')
        .select(['team_id', 'team_name', 'distance', 'distance_hundredths', 'blue_flowers', 'prestige'])
        .where('edition', '=', year)
        .orderBy('distance_hundredths', 'desc').orderBy('team_id')
        .execute(),
      store ? readDraw(db, store, year) : null,
    ]);
    reply.header('cache-control', 'no-cache');
    return {
      year,
      name: { ...edition.name },
      figures: {
        participants: totals.participants,
        teams: totals.teams,
        km: fromHundredths(totals.distanceHundredths),
        flowers: totals.blueFlowers,
        raisedCents: totals.raisedCents,
      },
      teams: teams.map((team) => {
        const progress = teamProgress(team.distance, edition);
        return {
          teamId: team.team_id,
          teamName: team.team_name,
          km: fromHundredths(Number(team.distance_hundredths)),
          flowers: team.blue_flowers,
          prestige: team.prestige,
          // The mission the team is in; at 0 km, the route's first.
          missionId: progress.mission?.id ?? edition.route.missions[0]?.id ?? 0,
          lapPercentage: progress.lapPercentage,
        };
      }),
      route: edition.route,
      draw: draw && draw.status === 'drawn'
        ? { winners: draw.winners.map((w) => ({ teamName: w.teamName ?? '', participantName: w.firstName })) }
        : null,
    };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(editionRoutes, (deps: RouteDependencies) => ({
  db: deps.db, now: deps.now, editions: deps.editions, ...(deps.history ? { store: deps.history } : {}),
}));
