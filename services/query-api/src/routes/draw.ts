/**
 * GET /api/draw (public): the prize draw of the edition the site answers for (editions.ts) as
 * anyone may check it — the
 * commitment and the draw's instant from DrawCommitted, after the draw the seed, the eligible
 * participant ids (ascending, opaque numbers: no names), their count and SHA-256, and the
 * winners in draw order with their first name and team name only. scripts/verify-draw.mjs
 * recomputes the winners from this answer.
 *
 * Read from the log's stream `draw-{year}` (three events at most); names come from the read
 * models (rm.admin_participants, rm.admin_teams) at read time, so an erased or deleted winner's
 * first name reads null (docs/decisions/0002), and the events themselves carry no names.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { DrawAnswer } from '@sinilill/contracts';
import { streams, type DrawCommitted, type DrawSeedRevealed, type DrawWinnersChosen } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { perAddress, routeFile, type Limit } from '@sinilill/http';
import type { ReadModelEditions } from '../editions';
import type { RouteDependencies } from '../dependencies';

export interface DrawRouteOptions {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  now: () => Date;
  editions: ReadModelEditions;
  /** Reads per client address (docs/decisions/0108: each folds the log); none when absent. */
  limit?: Limit;
}

/** The first word of a full name (null stays null). */
export function firstNameOf(fullName: string | null): string | null {
  if (fullName === null) return null;
  const first = fullName.trim().split(/\s+/)[0];
  return first === undefined || first === '' ? null : first;
}

/**
 * The draw of edition `year` as GET /api/draw answers it, from stream `draw-{year}` and the
 * read models' names (status 'none' without a draw).
 */
export async function readDraw(db: Kysely<ReadModelDatabase>, store: EventStore, year: number): Promise<DrawAnswer> {
  const events = await store.readStream(streams.draw(year));
  const committed = events.find((e) => e.type === 'DrawCommitted')?.data as DrawCommitted['data'] | undefined;
  const revealed = events.find((e) => e.type === 'DrawSeedRevealed')?.data as DrawSeedRevealed['data'] | undefined;
  const chosen = events.find((e) => e.type === 'DrawWinnersChosen')?.data as DrawWinnersChosen['data'] | undefined;
  let winners: DrawAnswer['winners'] = [];
  if (chosen && chosen.winners.length > 0) {
    const ids = chosen.winners.map((w) => w.participantId);
    const teamIds = chosen.winners.map((w) => w.teamId);
    const people = await db.withSchema('rm').selectFrom('admin_participants').select(['participant_id', 'full_name']).where('participant_id', 'in', ids).execute();
    const teams = await db.withSchema('rm').selectFrom('admin_teams').select(['team_id', 'team_name']).where('team_id', 'in', teamIds).execute();
    const nameOf = new Map(people.map((p) => [p.participant_id, p.full_name]));
    const teamOf = new Map(teams.map((t) => [t.team_id, t.team_name]));
    winners = chosen.winners.map((w) => ({
      participantId: w.participantId,
      firstName: firstNameOf(nameOf.get(w.participantId) ?? null),
      teamName: teamOf.get(w.teamId) ?? null,
    }));
  }
  return {
    year,
    status: chosen ? 'drawn' as const : committed ? 'committed' as const : 'none' as const,
    procedure: 'sinilill-draw-v1' as const,
    commitment: committed?.commitment ?? null,
    drawAt: committed?.drawAt ?? null,
    winnersCount: committed?.winners ?? null,
    seed: revealed?.seed ?? null,
    asOf: chosen?.asOf ?? null,
    eligible: chosen?.eligible ?? null,
    eligibleCount: chosen?.eligibleCount ?? null,
    eligibleListHash: chosen?.eligibleListHash ?? null,
    winners,
  };
}

export const drawRoutes: FastifyPluginAsyncTypebox<DrawRouteOptions> = async (app, { db, store, now, editions, limit }) => {
  app.get('/draw', { config: perAddress('draw-read', limit), schema: { response: { 200: DrawAnswer } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return readDraw(db, store, await editions.answeringYear(now()));
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the event store. */
export default routeFile(drawRoutes, (deps: RouteDependencies) => (deps.history ? { db: deps.db, store: deps.history, now: deps.now, editions: deps.editions, limit: deps.limits.drawReads } : null));
