/**
 * Projection `team-stats`: the public statistics (spec §2 Home, §7 GET /stats): per team its
 * card (name, icon, description: TeamRegistered, TeamPublicAttributesChanged, TeamRenamed), rounded distance,
 * participants, per-day km, prestige, in-lap distance and blue flowers, and the totals row. A
 * TeamDeleted removes the team with its km; a ParticipantDeleted takes one off its count. Owns
 * team_stats, team_daily_distance, stats_totals and stats_entry_ledger.
 */
import { sql, type Kysely } from 'kysely';
import { currentEdition, type Edition } from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import { upsertRows } from '../bulk';
import type { Projection } from '../projection';
import { fold } from '../parking';
import type { ReadModelDatabase } from '../schema';
import {
  TEAM_STATS_EVENTS,
  deriveTeamFigures,
  emptyWorkingSet,
  evolveTeamStats,
  type TeamStatsWorkingSet,
} from './evolve';

const ENTRY_EVENTS = new Set(['EntryAdded', 'EntryEdited', 'EntryDeleted']);

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<TeamStatsWorkingSet> {
  const set = emptyWorkingSet();
  const entryIds = new Set<number>();
  const teamIds = new Set<number>();
  for (const event of events) {
    const data = event.data as { entryId?: number; teamId?: number };
    if (ENTRY_EVENTS.has(event.type) && data.entryId !== undefined) entryIds.add(data.entryId);
    if (data.teamId !== undefined) teamIds.add(data.teamId);
  }
  if (entryIds.size > 0) {
    const rows = await db.selectFrom('stats_entry_ledger').selectAll()
      .where('entry_id', '=', sql<number>`any(${[...entryIds]}::int[])`).execute();
    for (const row of rows) {
      teamIds.add(row.team_id);
      set.ledger.set(row.entry_id, {
        entryId: row.entry_id, teamId: row.team_id, participantId: row.participant_id,
        distanceHundredths: row.distance_hundredths, performedAt: row.performed_at,
      });
    }
  }
  if (teamIds.size > 0) {
    const rows = await db.selectFrom('team_stats')
      .select(['team_id', 'team_name', 'icon', 'description', 'created_at', 'distance_hundredths', 'participants'])
      .where('team_id', '=', sql<number>`any(${[...teamIds]}::int[])`).execute();
    for (const row of rows) {
      set.teams.set(row.team_id, {
        teamId: row.team_id, teamName: row.team_name, icon: row.icon, description: row.description,
        createdAt: row.created_at.toISOString(), distanceHundredths: row.distance_hundredths,
        participants: row.participants,
      });
    }
  }
  return set;
}

async function save(db: Kysely<ReadModelDatabase>, set: TeamStatsWorkingSet, edition: Edition): Promise<void> {
  const teams = [...set.changedTeams].map((id) => {
    const row = set.teams.get(id)!;
    const figures = deriveTeamFigures(row.distanceHundredths, edition);
    return {
      team_id: row.teamId, team_name: row.teamName, icon: row.icon, description: row.description,
      created_at: row.createdAt, distance_hundredths: row.distanceHundredths,
      participants: row.participants, distance: figures.distance, prestige: figures.prestige,
      in_lap_distance: figures.inLapDistance, blue_flowers: figures.blueFlowers,
    };
  });
  await upsertRows(db, {
    table: 'team_stats', key: ['team_id'],
    columns: {
      team_id: 'int', team_name: 'text', icon: 'text', description: 'text', created_at: 'timestamptz',
      distance_hundredths: 'bigint', participants: 'int', distance: 'int', prestige: 'int',
      in_lap_distance: 'int', blue_flowers: 'int',
    },
  }, teams);
  const kept = [...set.ledger.values()].filter((e) => e !== null).map((e) => ({
    entry_id: e.entryId, team_id: e.teamId, participant_id: e.participantId,
    distance_hundredths: e.distanceHundredths, performed_at: e.performedAt,
  }));
  await upsertRows(db, {
    table: 'stats_entry_ledger', key: ['entry_id'],
    columns: { entry_id: 'int', team_id: 'int', participant_id: 'int', distance_hundredths: 'int', performed_at: 'date' },
  }, kept);
  const removed = [...set.ledger.entries()].filter(([, e]) => e === null).map(([id]) => id);
  if (removed.length > 0) {
    await db.deleteFrom('stats_entry_ledger').where('entry_id', '=', sql<number>`any(${removed}::int[])`).execute();
  }
  const daily = [...set.dailyDelta.entries()].filter(([, delta]) => delta !== 0).map(([key, delta]) => {
    const [teamId, day] = key.split('|') as [string, string];
    return { team_id: Number(teamId), day, distance_hundredths: delta };
  });
  await upsertRows(db, {
    table: 'team_daily_distance', key: ['team_id', 'day'],
    columns: { team_id: 'int', day: 'date', distance_hundredths: 'bigint' },
    update: { distance_hundredths: 'add' },
  }, daily);
  if (daily.length > 0) {
    // A day whose km came back to 0 (its entries deleted, or edited to other days) loses its row:
    // a replay, folding those events in one batch, never writes it, and the read models must not
    // depend on where batches end (issue 17 item 11 caught 0-km rows live but not after a
    // replay). A missing row reads as 0 km (public-pages.ts).
    await db.deleteFrom('team_daily_distance').where('distance_hundredths', '=', 0)
      .where('team_id', '=', sql<number>`any(${[...new Set(daily.map((d) => d.team_id))]}::int[])`).execute();
  }
  const deleted = [...set.deletedTeams];
  if (deleted.length > 0) {
    // Whole-team deletes by team id: the team's ledger and daily rows need not be loaded.
    const ids = sql<number>`any(${deleted}::int[])`;
    await db.deleteFrom('team_stats').where('team_id', '=', ids).execute();
    await db.deleteFrom('team_daily_distance').where('team_id', '=', ids).execute();
    await db.deleteFrom('stats_entry_ledger').where('team_id', '=', ids).execute();
  }
  if (teams.length > 0 || deleted.length > 0) {
    // Totals from the team rows: one aggregate over a few hundred rows, never drifting.
    await db.updateTable('stats_totals').where('id', '=', 1).set((eb) => ({
      teams: eb.selectFrom('team_stats').select((e) => e.fn.countAll<number>().as('n')),
      participants: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('participants'), e.lit(0)).as('n')),
      distance: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('distance'), e.lit(0)).as('n')),
      blue_flowers: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('blue_flowers'), e.lit(0)).as('n')),
    })).execute();
  }
}

/**
 * team-stats for a given edition: prestige, in-lap distance and flowers follow `edition.route`
 * (D9: the route is data, so a replay with a changed route recomputes every team's flowers).
 */
export function createTeamStatsProjection(edition: Edition): Projection {
  return {
    name: 'team-stats',
    handles: TEAM_STATS_EVENTS,
    async apply(db, events) {
      const set = await load(db, events);
      fold(() => { for (const event of events) evolveTeamStats(set, event); });
      await save(db, set, edition);
    },
  };
}

/** team-stats for the edition the application runs. */
export const teamStatsProjection: Projection = createTeamStatsProjection(currentEdition);
