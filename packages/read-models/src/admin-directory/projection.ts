/**
 * Projection `admin-directory`: admin_users, one row per live account with its participant and
 * team (the admin console's users tab, spec §2 "Admin", §7 GET /admin/userdata), and its memory
 * tables admin_participants and admin_teams (see ./evolve.ts). Read by administrators only; no
 * team page reads it, so its batches send no change notifications (Projection.silent).
 */
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '@sinilill/event-store';
import { chunk, type Projection } from '../projection';
import { fold } from '../parking';
import type { ReadModelDatabase } from '../schema';
import { ADMIN_DIRECTORY_EVENTS, emptyAdminWorkingSet, evolveAdminDirectory, type AdminWorkingSet } from './evolve';

const anyInt = (ids: Iterable<number>) => sql<number>`any(${[...ids]}::int[])`;

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<AdminWorkingSet> {
  const set = emptyAdminWorkingSet();
  const userIds = new Set<string>();
  const participantIds = new Set<number>();
  const teamIds = new Set<number>();
  for (const event of events) {
    const data = event.data as { userId?: string; participantId?: number; teamId?: number };
    if (typeof data.userId === 'string') userIds.add(data.userId);
    if (typeof data.participantId === 'number') participantIds.add(data.participantId);
    if (typeof data.teamId === 'number') teamIds.add(data.teamId);
  }
  // Participants the batch names, and those of the teams it names (a TeamDeleted drops them).
  if (participantIds.size > 0 || teamIds.size > 0) {
    const rows = await db.selectFrom('admin_participants').selectAll()
      .where((eb) => eb.or([
        eb('participant_id', '=', anyInt(participantIds)),
        eb('team_id', '=', anyInt(teamIds)),
      ])).execute();
    for (const row of rows) {
      participantIds.add(row.participant_id);
      teamIds.add(row.team_id);
      set.participants.set(row.participant_id, {
        participantId: row.participant_id, teamId: row.team_id, fullName: row.full_name,
        isPaid: row.is_paid, createdAt: row.created_at.toISOString(),
      });
    }
  }
  // Accounts named, or whose participant or team is named: their copied fields may change.
  if (userIds.size > 0 || participantIds.size > 0 || teamIds.size > 0) {
    const rows = await db.selectFrom('admin_users').selectAll()
      .where((eb) => eb.or([
        eb('user_id', '=', sql<string>`any(${[...userIds]}::text[])`),
        eb('participant_id', '=', anyInt(participantIds)),
        eb('team_id', '=', anyInt(teamIds)),
      ])).execute();
    for (const row of rows) {
      if (row.team_id !== null) teamIds.add(row.team_id);
      set.users.set(row.user_id, {
        userId: row.user_id, participantId: row.participant_id, role: row.role, email: row.email,
        fullName: row.full_name, approved: row.approved, isPaid: row.is_paid, teamId: row.team_id,
        teamName: row.team_name, createdAt: row.created_at.toISOString(),
        participantCreatedAt: row.participant_created_at?.toISOString() ?? null,
      });
    }
  }
  if (teamIds.size > 0) {
    const rows = await db.selectFrom('admin_teams').selectAll().where('team_id', '=', anyInt(teamIds)).execute();
    for (const row of rows) set.teams.set(row.team_id, row.team_name);
  }
  return set;
}

async function save(db: Kysely<ReadModelDatabase>, set: AdminWorkingSet): Promise<void> {
  const users = [];
  const removedUsers: string[] = [];
  for (const id of set.changedUsers) {
    const u = set.users.get(id);
    if (!u) {
      removedUsers.push(id);
      continue;
    }
    users.push({
      user_id: u.userId, participant_id: u.participantId, role: u.role, email: u.email, full_name: u.fullName,
      approved: u.approved, is_paid: u.isPaid, team_id: u.teamId, team_name: u.teamName,
      created_at: u.createdAt, participant_created_at: u.participantCreatedAt,
    });
  }
  for (const part of chunk(users, 11)) {
    await db.insertInto('admin_users').values(part)
      .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({
        participant_id: eb.ref('excluded.participant_id'), role: eb.ref('excluded.role'),
        email: eb.ref('excluded.email'), full_name: eb.ref('excluded.full_name'),
        approved: eb.ref('excluded.approved'), is_paid: eb.ref('excluded.is_paid'),
        team_id: eb.ref('excluded.team_id'), team_name: eb.ref('excluded.team_name'),
        created_at: eb.ref('excluded.created_at'), participant_created_at: eb.ref('excluded.participant_created_at'),
      }))).execute();
  }
  if (removedUsers.length > 0) {
    await db.deleteFrom('admin_users').where('user_id', '=', sql<string>`any(${removedUsers}::text[])`).execute();
  }
  const participants = [];
  const removedParticipants: number[] = [];
  for (const id of set.changedParticipants) {
    const p = set.participants.get(id);
    if (!p) removedParticipants.push(id);
    else participants.push({ participant_id: p.participantId, team_id: p.teamId, full_name: p.fullName, is_paid: p.isPaid, created_at: p.createdAt });
  }
  for (const part of chunk(participants, 5)) {
    await db.insertInto('admin_participants').values(part)
      .onConflict((oc) => oc.column('participant_id').doUpdateSet((eb) => ({
        team_id: eb.ref('excluded.team_id'), full_name: eb.ref('excluded.full_name'),
        is_paid: eb.ref('excluded.is_paid'), created_at: eb.ref('excluded.created_at'),
      }))).execute();
  }
  if (removedParticipants.length > 0) {
    await db.deleteFrom('admin_participants').where('participant_id', '=', anyInt(removedParticipants)).execute();
  }
  const teams = [];
  const removedTeams: number[] = [];
  for (const id of set.changedTeams) {
    const name = set.teams.get(id);
    if (name === null || name === undefined) removedTeams.push(id);
    else teams.push({ team_id: id, team_name: name });
  }
  for (const part of chunk(teams, 2)) {
    await db.insertInto('admin_teams').values(part)
      .onConflict((oc) => oc.column('team_id').doUpdateSet((eb) => ({ team_name: eb.ref('excluded.team_name') }))).execute();
  }
  if (removedTeams.length > 0) {
    await db.deleteFrom('admin_teams').where('team_id', '=', anyInt(removedTeams)).execute();
  }
}

export const adminDirectoryProjection: Projection = {
  name: 'admin-directory',
  handles: ADMIN_DIRECTORY_EVENTS,
  silent: true,
  async apply(db, events) {
    const set = await load(db, events);
    fold(() => { for (const event of events) evolveAdminDirectory(set, event); });
    await save(db, set);
  },
};
