/**
 * Projection `team-directory`: team_members (each member's km, paid flag, captain flag),
 * team_entries (the live entries) and team_join_codes (each team's current code), the data of the
 * team page's two tables and its join-code box (spec §2). Deletions (ParticipantDeleted,
 * TeamDeleted) remove rows; ParticipantRenamed corrects a member's name.
 */
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '@sinilill/event-store';
import { chunk, type Projection } from '../projection';
import { fold } from '../parking';
import type { ReadModelDatabase } from '../schema';
import { TEAM_DIRECTORY_EVENTS, emptyDirectory, evolveTeamDirectory, type DirectoryWorkingSet } from './evolve';

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<DirectoryWorkingSet> {
  const set = emptyDirectory();
  const entryIds = new Set<number>();
  const participantIds = new Set<number>();
  for (const event of events) {
    const data = event.data as { entryId?: number; participantId?: number };
    if (event.type.startsWith('Entry') && data.entryId !== undefined) entryIds.add(data.entryId);
    if (data.participantId !== undefined) participantIds.add(data.participantId);
  }
  if (entryIds.size > 0) {
    const rows = await db.selectFrom('team_entries').selectAll()
      .where('entry_id', '=', sql<number>`any(${[...entryIds]}::int[])`).execute();
    for (const row of rows) {
      participantIds.add(row.participant_id);
      set.entries.set(row.entry_id, {
        entryId: row.entry_id, teamId: row.team_id, participantId: row.participant_id,
        distanceHundredths: row.distance_hundredths, entryType: row.entry_type,
        performedAt: row.performed_at, createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      });
    }
  }
  if (participantIds.size > 0) {
    const rows = await db.selectFrom('team_members').selectAll()
      .where('participant_id', '=', sql<number>`any(${[...participantIds]}::int[])`).execute();
    for (const row of rows) {
      set.members.set(row.participant_id, {
        participantId: row.participant_id, teamId: row.team_id, fullName: row.full_name,
        isPaid: row.is_paid, isCaptain: row.is_captain, distanceHundredths: row.distance_hundredths,
        createdAt: row.created_at.toISOString(),
      });
    }
  }
  return set;
}

async function save(db: Kysely<ReadModelDatabase>, set: DirectoryWorkingSet): Promise<void> {
  const changed = [...set.changedMembers].map((id) => set.members.get(id)!).map((m) => ({
    participant_id: m.participantId, team_id: m.teamId, full_name: m.fullName, is_paid: m.isPaid,
    is_captain: m.isCaptain, distance_hundredths: m.distanceHundredths, created_at: m.createdAt,
  }));
  for (const part of chunk(changed, 7)) {
    await db.insertInto('team_members').values(part)
      .onConflict((oc) => oc.column('participant_id').doUpdateSet((eb) => ({
        team_id: eb.ref('excluded.team_id'), full_name: eb.ref('excluded.full_name'),
        is_paid: eb.ref('excluded.is_paid'), is_captain: eb.ref('excluded.is_captain'),
        distance_hundredths: eb.ref('excluded.distance_hundredths'), created_at: eb.ref('excluded.created_at'),
      }))).execute();
  }
  const live: NonNullable<ReturnType<DirectoryWorkingSet['entries']['get']>>[] = [];
  const removed: number[] = [];
  for (const id of set.changedEntries) {
    const entry = set.entries.get(id);
    if (entry) live.push(entry);
    else removed.push(id);
  }
  for (const part of chunk(live, 8)) {
    await db.insertInto('team_entries').values(part.map((e) => ({
      entry_id: e.entryId, team_id: e.teamId, participant_id: e.participantId,
      distance_hundredths: e.distanceHundredths, entry_type: e.entryType, performed_at: e.performedAt,
      created_at: e.createdAt, updated_at: e.updatedAt,
    }))).onConflict((oc) => oc.column('entry_id').doUpdateSet((eb) => ({
      team_id: eb.ref('excluded.team_id'), participant_id: eb.ref('excluded.participant_id'),
      distance_hundredths: eb.ref('excluded.distance_hundredths'), entry_type: eb.ref('excluded.entry_type'),
      performed_at: eb.ref('excluded.performed_at'), updated_at: eb.ref('excluded.updated_at'),
    }))).execute();
  }
  if (removed.length > 0) {
    await db.deleteFrom('team_entries').where('entry_id', '=', sql<number>`any(${removed}::int[])`).execute();
  }
  const codes = [...set.joinCodes.values()].map((c) => ({ team_id: c.teamId, join_code: c.joinCode, created_at: c.createdAt }));
  for (const part of chunk(codes, 3)) {
    await db.insertInto('team_join_codes').values(part)
      .onConflict((oc) => oc.column('team_id').doUpdateSet((eb) => ({
        join_code: eb.ref('excluded.join_code'), created_at: eb.ref('excluded.created_at'),
      }))).execute();
  }
  // Deletes last, so that nothing upserted above outlives its deletion in the same batch.
  const members = [...set.deletedMembers];
  if (members.length > 0) {
    await db.deleteFrom('team_members').where('participant_id', '=', sql<number>`any(${members}::int[])`).execute();
  }
  const teams = [...set.deletedTeams];
  if (teams.length > 0) {
    // By team id, so a member or entry whose own deletion event is missing cannot linger.
    const ids = sql<number>`any(${teams}::int[])`;
    await db.deleteFrom('team_join_codes').where('team_id', '=', ids).execute();
    await db.deleteFrom('team_members').where('team_id', '=', ids).execute();
    await db.deleteFrom('team_entries').where('team_id', '=', ids).execute();
  }
}

export const teamDirectoryProjection: Projection = {
  name: 'team-directory',
  handles: TEAM_DIRECTORY_EVENTS,
  async apply(db, events) {
    const set = await load(db, events);
    fold(() => { for (const event of events) evolveTeamDirectory(set, event); });
    await save(db, set);
  },
};
