/**
 * Projection `team-stats`: the public statistics (spec §2 Home, §7 GET /stats): per team its
 * card (name, icon, description: TeamRegistered, TeamPublicAttributesChanged, TeamRenamed), rounded distance,
 * participants, per-day km, prestige, in-lap distance and blue flowers, and the totals row. A
 * TeamDeleted removes the team with its km; a ParticipantDeleted takes one off its count. Owns
 * team_stats, team_daily_distance and stats_totals (every edition's teams together). A team's figures follow its own edition's route (TeamRegistered.edition),
 * which this projection keeps from the edition events (projection-editions.ts); an
 * EditionChanged recomputes the figures of every team of that edition.
 *
 * What an entry counted for before a batch (to undo it on an edit, deletion or rejection) is read
 * from the log: the entry's own stream up to the batch, folded by the domain's entry ledger, in
 * one read for every such entry of the batch (EventStore.readStreams). It used to be kept in a
 * table of its own, stats_entry_ledger, a second copy of every entry beside team-directory's
 * team_entries, written for every entry added and read again only for the few edited or deleted
 * (docs/decisions/0103). An entry of a team that is gone (TeamDeleted) counts for nothing.
 */
import { sql, type Kysely } from 'kysely';
import { asEntryEvent, countOf, evolveLedgerEntry, isEntryEventType, streams, type LedgerEntry } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { upsertRows } from '../bulk';
import type { ApplyContext, Projection } from '../projection';
import { fold } from '../parking';
import { EDITION_DATA_EVENTS, ProjectionEditions, type EditionLookup } from '../projection-editions';
import type { ReadModelDatabase } from '../schema';
import {
  TEAM_STATS_EVENTS,
  deriveTeamFigures,
  emptyWorkingSet,
  evolveTeamStats,
  type TeamFigures,
  type TeamStatsWorkingSet,
} from './evolve';

/**
 * What a rebuild keeps across its batches (Projection.rebuild, docs/decisions/0043): every team row and every
 * team-day's km in memory, written with their final figures by `finish` (a team row also in its
 * batch when its text is new, so that a text PostgreSQL refuses parks its own event). Deletions
 * are written batch by batch, as live.
 */
interface TeamStatsRebuildState {
  editions: ProjectionEditions;
  teams: Map<number, TeamFigures>;
  /** km per `${teamId}|${day}`, hundredths. */
  daily: Map<string, number>;
}

/**
 * What each entry of `entryIds` counted for just before global position `before` (null: it did
 * not count, or is unknown): its stream read from the log (one round trip where the store reads
 * several streams at once) and folded by the domain's entry ledger up to that position.
 */
async function countedBefore(store: EventStore, entryIds: readonly number[], before: number): Promise<Map<number, LedgerEntry | null>> {
  const requests = entryIds.map((id) => ({ stream: streams.entry(id) }));
  const read = store.readStreams
    ? (await store.readStreams(requests)).streams
    : await Promise.all(requests.map((request) => store.readStream(request.stream)));
  const counted = new Map<number, LedgerEntry | null>();
  entryIds.forEach((id, i) => {
    let entry: LedgerEntry | null = null;
    for (const recorded of read[i] ?? []) {
      if (recorded.globalPosition >= before) break;
      const event = asEntryEvent(recorded);
      if (!event) continue;
      try {
        entry = evolveLedgerEntry(entry, event);
      } catch {
        // An event the fold refuses (a distance with three decimals) was parked when it came,
        // and changed nothing this projection counted.
      }
    }
    counted.set(id, entry);
  });
  return counted;
}

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[], context: ApplyContext, state?: TeamStatsRebuildState): Promise<TeamStatsWorkingSet> {
  const set = emptyWorkingSet();
  const teamIds = new Set<number>();
  const editionYears = new Set<number>();
  // Entries the batch names before adding them (an edit, a deletion, a review of an earlier
  // batch's entry): what they counted for comes from the log. An entry the batch adds first needs none.
  const added = new Set<number>();
  const earlier = new Set<number>();
  for (const event of events) {
    const data = event.data as { entryId?: number; teamId?: number; year?: number };
    if (ProjectionEditions.isEditionEvent(event) && data.year !== undefined) editionYears.add(data.year);
    if (isEntryEventType(event.type) && data.entryId !== undefined) {
      if (event.type === 'EntryAdded') added.add(data.entryId);
      else if (!added.has(data.entryId)) earlier.add(data.entryId);
    }
    if (data.teamId !== undefined) teamIds.add(data.teamId);
  }
  const priors = earlier.size > 0 ? await countedBefore(context.store, [...earlier], events[0]!.globalPosition) : new Map<number, LedgerEntry | null>();
  for (const prior of priors.values()) if (prior) teamIds.add(prior.teamId);
  if (state) {
    // Copies, so that a batch that fails leaves the kept rows as they were.
    for (const id of teamIds) {
      const row = state.teams.get(id);
      if (row) set.teams.set(id, { ...row });
    }
  } else if (teamIds.size > 0 || editionYears.size > 0) {
    // An edition's new data changes the figures of all of its teams.
    const rows = await db.selectFrom('team_stats')
      .select(['team_id', 'edition', 'team_name', 'icon', 'description', 'created_at', 'distance_hundredths', 'participants'])
      .where((eb) => eb.or([
        eb('team_id', '=', sql<number>`any(${[...teamIds]}::int[])`),
        eb('edition', '=', sql<number>`any(${[...editionYears]}::int[])`),
      ])).execute();
    for (const row of rows) {
      if (editionYears.has(row.edition)) set.changedTeams.add(row.team_id);
      set.teams.set(row.team_id, {
        teamId: row.team_id, edition: row.edition, teamName: row.team_name, icon: row.icon, description: row.description,
        createdAt: row.created_at.toISOString(), distanceHundredths: row.distance_hundredths,
        participants: row.participants,
      });
    }
  }
  // What an entry counted for stands only while its team does: a team deleted in an earlier
  // batch took its entries' km with it (TeamDeleted), so its entries count for nothing.
  for (const [id, prior] of priors) {
    const counted = countOf(prior);
    if (counted && set.teams.has(counted.teamId)) set.ledger.set(id, counted);
  }
  return set;
}

/** Writes team rows (their derived figures from the edition's route, spec §4). */
async function saveTeams(db: Kysely<ReadModelDatabase>, rows: Iterable<TeamFigures>, editions: EditionLookup): Promise<void> {
  const teams = [...rows].map((row) => {
    const figures = deriveTeamFigures(row.distanceHundredths, editions(row.edition));
    return {
      team_id: row.teamId, edition: row.edition, team_name: row.teamName, icon: row.icon, description: row.description,
      created_at: row.createdAt, distance_hundredths: row.distanceHundredths,
      participants: row.participants, distance: figures.distance, prestige: figures.prestige,
      in_lap_distance: figures.inLapDistance, blue_flowers: figures.blueFlowers,
    };
  });
  await upsertRows(db, {
    table: 'team_stats', key: ['team_id'],
    columns: {
      team_id: 'int', edition: 'int', team_name: 'text', icon: 'text', description: 'text', created_at: 'timestamptz',
      distance_hundredths: 'bigint', participants: 'int', distance: 'int', prestige: 'int',
      in_lap_distance: 'int', blue_flowers: 'int',
    },
  }, teams);
}

/** Day rows of `deltas` (`${teamId}|${day}` → hundredths), zero ones left out. */
function dailyRows(deltas: Map<string, number>) {
  return [...deltas.entries()].filter(([, delta]) => delta !== 0).map(([key, delta]) => {
    const [teamId, day] = key.split('|') as [string, string];
    return { team_id: Number(teamId), day, distance_hundredths: delta };
  });
}

/** The totals row from the team rows: one aggregate over a few thousand rows, never drifting. */
async function saveTotals(db: Kysely<ReadModelDatabase>): Promise<void> {
  await db.updateTable('stats_totals').where('id', '=', 1).set((eb) => ({
    teams: eb.selectFrom('team_stats').select((e) => e.fn.countAll<number>().as('n')),
    participants: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('participants'), e.lit(0)).as('n')),
    distance: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('distance'), e.lit(0)).as('n')),
    blue_flowers: eb.selectFrom('team_stats').select((e) => e.fn.coalesce(e.fn.sum<number>('blue_flowers'), e.lit(0)).as('n')),
  })).execute();
}

const DAILY_COLUMNS = { team_id: 'int', day: 'date', distance_hundredths: 'bigint' } as const;

async function save(db: Kysely<ReadModelDatabase>, set: TeamStatsWorkingSet, editions: EditionLookup): Promise<void> {
  await saveTeams(db, [...set.changedTeams].map((id) => set.teams.get(id)!), editions);
  const daily = dailyRows(set.dailyDelta);
  await upsertRows(db, {
    table: 'team_daily_distance', key: ['team_id', 'day'], columns: DAILY_COLUMNS, update: { distance_hundredths: 'add' },
  }, daily);
  if (daily.length > 0) {
    // A day whose km came back to 0 (its entries deleted, or edited to other days) loses its row:
    // a replay, folding those events in one batch, never writes it, and the read models must not
    // depend on where batches end (tests/int/daily-distance-rows.int.test.ts). A missing row
    // reads as 0 km (public-pages.ts).
    await db.deleteFrom('team_daily_distance').where('distance_hundredths', '=', 0)
      .where('team_id', '=', sql<number>`any(${[...new Set(daily.map((d) => d.team_id))]}::int[])`).execute();
  }
  const deleted = [...set.deletedTeams];
  if (deleted.length > 0) {
    // Whole-team deletes by team id: the team's daily rows need not be loaded.
    const ids = sql<number>`any(${deleted}::int[])`;
    await db.deleteFrom('team_stats').where('team_id', '=', ids).execute();
    await db.deleteFrom('team_daily_distance').where('team_id', '=', ids).execute();
  }
  if (set.changedTeams.size > 0 || deleted.length > 0) await saveTotals(db);
}

/**
 * A rebuild's batch: new team texts and deletions written as live, then the kept team rows and
 * day totals changed in memory (after the writes, so a failed batch leaves them as they were;
 * module docs of docs/decisions/0043).
 */
async function saveRebuilding(db: Kysely<ReadModelDatabase>, set: TeamStatsWorkingSet, state: TeamStatsRebuildState, editions: EditionLookup): Promise<void> {
  // A team whose text is new (registered, renamed, described) is written in its batch, so that a
  // text PostgreSQL refuses fails that batch and parks its event; the km wait for finish.
  const texts = [...set.changedTeams].map((id) => set.teams.get(id)!).filter((row) => {
    const before = state.teams.get(row.teamId);
    return !before || before.edition !== row.edition || before.teamName !== row.teamName || before.icon !== row.icon
      || before.description !== row.description || before.createdAt !== row.createdAt;
  });
  await saveTeams(db, texts, editions);
  const deleted = [...set.deletedTeams];
  if (deleted.length > 0) {
    await db.deleteFrom('team_stats').where('team_id', '=', sql<number>`any(${deleted}::int[])`).execute();
  }
  for (const id of set.changedTeams) state.teams.set(id, set.teams.get(id)!);
  for (const [key, delta] of set.dailyDelta) state.daily.set(key, (state.daily.get(key) ?? 0) + delta);
  for (const id of deleted) {
    state.teams.delete(id);
    for (const key of [...state.daily.keys()]) if (key.startsWith(`${id}|`)) state.daily.delete(key);
  }
}

/**
 * Folds a batch: edition events into the projection's editions, the others into the working set;
 * then looks up the edition of every changed team, so that a team of an edition the log does not
 * have fails its event's fold (and parks it) rather than the write.
 */
function foldBatch(set: TeamStatsWorkingSet, editions: ProjectionEditions, events: readonly RecordedEvent[]): void {
  fold(() => {
    for (const event of events) {
      if (editions.fold(event) === null) evolveTeamStats(set, event);
    }
    for (const id of set.changedTeams) editions.get(set.teams.get(id)!.edition);
  });
}

/**
 * team-stats: prestige, in-lap distance and flowers follow the route of each team's edition
 * (docs/decisions/0009: the route is data, so a replay with a changed route recomputes every team's
 * flowers; decision 0079: each team has its edition's route).
 */
export function createTeamStatsProjection(): Projection {
  return {
    name: 'team-stats',
    handles: [...TEAM_STATS_EVENTS, ...EDITION_DATA_EVENTS],
    async apply(db, events, context) {
      const editions = await ProjectionEditions.load(db, 'team-stats');
      const set = await load(db, events, context);
      foldBatch(set, editions, events);
      await editions.save(db);
      await save(db, set, editions.get);
    },
    rebuild() {
      const state: TeamStatsRebuildState = { editions: ProjectionEditions.empty('team-stats'), teams: new Map(), daily: new Map() };
      return {
        async apply(db, events, context) {
          const set = await load(db, events, context, state);
          const editions = state.editions.copy();
          foldBatch(set, editions, events);
          await editions.save(db);
          await saveRebuilding(db, set, state, editions.get);
          state.editions = editions;
        },
        async finish(db) {
          await saveTeams(db, state.teams.values(), state.editions.get);
          await upsertRows(db, { table: 'team_daily_distance', key: ['team_id', 'day'], columns: DAILY_COLUMNS }, dailyRows(state.daily));
          await saveTotals(db);
        },
      };
    },
  };
}

/** The team-stats projection the projector runs. */
export const teamStatsProjection: Projection = createTeamStatsProjection();
