/**
 * Projection `team-directory`: team_members (each member's km, paid flag, captain flag),
 * team_entries (the live entries) and team_join_codes (each team's current code), the data of the
 * team page's two tables and its join-code box (spec §2). Deletions (ParticipantDeleted,
 * TeamDeleted) remove rows; ParticipantRenamed corrects a member's name.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { isEntryEventType } from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import { upsertRows } from '../bulk';
import { IdSet, chunk, type Projection } from '../projection';
import { fold } from '../parking';
import type { ReadModelDatabase, TeamEntriesTable } from '../schema';
import { TEAM_DIRECTORY_EVENTS, emptyDirectory, evolveTeamDirectory, type DirectoryWorkingSet, type EntryReview, type Member, type TeamEntry } from './evolve';

/**
 * What a rebuild keeps across its batches (Projection.rebuild, docs/decisions/0043): every member row in memory,
 * written with its final km and paid flag by `finish` (and in its batch only when its name is new,
 * so that a name PostgreSQL refuses parks its own event), and which entries have a row written
 * (only those are loaded again, for an edit or a deletion; a new entry is not probed for).
 * Entries, join codes and deletions are written batch by batch, as live.
 */
interface DirectoryRebuildState {
  members: Map<number, Member>;
  entriesWritten: IdSet;
}

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[], state?: DirectoryRebuildState): Promise<DirectoryWorkingSet> {
  const set = emptyDirectory();
  const entryIds = new Set<number>();
  const participantIds = new Set<number>();
  for (const event of events) {
    const data = event.data as { entryId?: number; participantId?: number };
    if (isEntryEventType(event.type) && data.entryId !== undefined && (!state || state.entriesWritten.has(data.entryId))) {
      entryIds.add(data.entryId);
    }
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
        review: reviewOfRow(row),
      });
    }
  }
  if (state) {
    // Copies, so that a batch that fails leaves the kept rows as they were.
    for (const id of participantIds) {
      const member = state.members.get(id);
      if (member) set.members.set(id, { ...member });
    }
  } else if (participantIds.size > 0) {
    const rows = await db.selectFrom('team_members').selectAll()
      .where('participant_id', '=', sql<number>`any(${[...participantIds]}::int[])`).execute();
    for (const row of rows) {
      set.members.set(row.participant_id, {
        participantId: row.participant_id, teamId: row.team_id, edition: row.edition, fullName: row.full_name,
        isPaid: row.is_paid, isCaptain: row.is_captain, distanceHundredths: row.distance_hundredths,
        createdAt: row.created_at.toISOString(),
      });
    }
  }
  return set;
}

/** An entry row's review state (migration 2026-010), or null when never flagged. */
function reviewOfRow(row: Selectable<TeamEntriesTable>): EntryReview | null {
  // Columns absent (a schema from before migration 2026-010) read as never flagged.
  if (row.review_status == null || row.flagged_at == null) return null;
  return {
    status: row.review_status as EntryReview['status'],
    reasons: JSON.parse(row.review_reasons ?? '[]') as EntryReview['reasons'],
    flaggedAt: row.flagged_at.toISOString(),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    note: row.review_note,
  };
}

/** Writes member rows. */
async function saveMembers(db: Kysely<ReadModelDatabase>, members: Iterable<Member>): Promise<void> {
  const rows = [...members].map((m) => ({
    participant_id: m.participantId, team_id: m.teamId, edition: m.edition, full_name: m.fullName, is_paid: m.isPaid,
    is_captain: m.isCaptain, distance_hundredths: m.distanceHundredths, created_at: m.createdAt,
  }));
  await upsertRows(db, {
    table: 'team_members', key: ['participant_id'],
    columns: {
      participant_id: 'int', team_id: 'int', edition: 'int', full_name: 'text', is_paid: 'bool', is_captain: 'bool',
      distance_hundredths: 'bigint', created_at: 'timestamptz',
    },
  }, rows);
}

/**
 * Writes the batch's rows; a rebuild (`state`) keeps its member rows in memory instead (writing
 * only new names) and changes them only after the batch's writes succeeded (docs/decisions/0043).
 */
async function save(db: Kysely<ReadModelDatabase>, set: DirectoryWorkingSet, state?: DirectoryRebuildState): Promise<void> {
  const changed = [...set.changedMembers].map((id) => set.members.get(id)!);
  // A rebuild writes a member's row when its text is new (registered, renamed) so that a name
  // PostgreSQL refuses fails its own batch and is parked there; km and the paid flag wait for finish.
  await saveMembers(db, state ? changed.filter((m) => state.members.get(m.participantId)?.fullName !== m.fullName || !state.members.has(m.participantId)) : changed);
  const live: TeamEntry[] = [];
  const removed: number[] = [];
  for (const id of set.changedEntries) {
    const entry = set.entries.get(id);
    if (entry) live.push(entry);
    else removed.push(id);
  }
  const entryRow = (e: TeamEntry) => ({
    entry_id: e.entryId, team_id: e.teamId, participant_id: e.participantId,
    distance_hundredths: e.distanceHundredths, entry_type: e.entryType, performed_at: e.performedAt,
    created_at: e.createdAt, updated_at: e.updatedAt,
  });
  const entryColumns = {
    entry_id: 'int', team_id: 'int', participant_id: 'int', distance_hundredths: 'int', entry_type: 'text',
    performed_at: 'date', created_at: 'timestamptz', updated_at: 'timestamptz',
  } as const;
  // created_at is the entry's own and never changes (not in the update).
  const entryUpdate = {
    team_id: 'replace', participant_id: 'replace', distance_hundredths: 'replace', entry_type: 'replace',
    performed_at: 'replace', updated_at: 'replace',
  } as const;
  // Entries never flagged are written without the review columns (migration 2026-010), so that
  // a schema from before that migration (a replay's old schema, an upgrade) projects as before;
  // a review is never cleared, so leaving the columns out never leaves a stale review behind.
  await upsertRows(db, { table: 'team_entries', key: ['entry_id'], columns: entryColumns, update: entryUpdate },
    live.filter((e) => e.review === null).map(entryRow));
  await upsertRows(db, {
    table: 'team_entries', key: ['entry_id'],
    columns: {
      ...entryColumns,
      review_status: 'text', review_reasons: 'text', flagged_at: 'timestamptz', decided_by: 'text', decided_at: 'timestamptz', review_note: 'text',
    },
    update: {
      ...entryUpdate,
      review_status: 'replace', review_reasons: 'replace', flagged_at: 'replace', decided_by: 'replace', decided_at: 'replace', review_note: 'replace',
    },
  }, live.filter((e) => e.review !== null).map((e) => ({
    ...entryRow(e),
    review_status: e.review!.status, review_reasons: JSON.stringify(e.review!.reasons),
    flagged_at: e.review!.flaggedAt, decided_by: e.review!.decidedBy,
    decided_at: e.review!.decidedAt, review_note: e.review!.note,
  })));
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
  if (state) {
    for (const id of set.changedEntries) {
      if (set.entries.get(id)) state.entriesWritten.add(id);
      else state.entriesWritten.delete(id);
    }
    for (const id of set.changedMembers) state.members.set(id, set.members.get(id)!);
    for (const id of members) state.members.delete(id);
    if (teams.length > 0) {
      const gone = new Set(teams);
      for (const [id, member] of state.members) if (gone.has(member.teamId)) state.members.delete(id);
    }
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
  rebuild() {
    const state: DirectoryRebuildState = { members: new Map(), entriesWritten: new IdSet() };
    return {
      async apply(db, events) {
        const set = await load(db, events, state);
        fold(() => { for (const event of events) evolveTeamDirectory(set, event); });
        await save(db, set, state);
      },
      async finish(db) {
        await saveMembers(db, state.members.values());
      },
    };
  },
};
