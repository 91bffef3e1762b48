/**
 * team-stats reads what an entry counted for from the log, not from a copy of its own
 * (docs/decisions/0103, read-model migration 0014): an edit, a rejection or a deletion in a batch
 * after the entry's own moves the team's km from what the entry's stream says, and an entry of a
 * team deleted in an earlier batch counts for nothing (no placeholder team comes back). Projected
 * one event per batch, so that every such event is in a batch after the entry's.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CommandRequest } from '@sinilill/commands';
import { SCHEMA_VERSIONS, streams, type ActingUser } from '@sinilill/domain';
import { catchUp, teamStatsProjection } from '@sinilill/read-models';
import { sql } from 'kysely';
import { testApplication, type TestApplication } from '../support/app';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
let app: TestApplication;
let serial = 0;
const as = (actor: ActingUser): CommandRequest => {
  serial += 1;
  return { actor, metadata: { commandId: `from-log-${serial}`, correlationId: `from-log-${serial}`, causationId: null } };
};
/** team-stats caught up one event per batch. */
const project = () => catchUp(app.db, app.store, teamStatsProjection, { batchSize: 1 });
const teamKm = async (teamId: number) => {
  const row = await app.db.withSchema('rm').selectFrom('team_stats').select('distance_hundredths').where('team_id', '=', teamId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.distance_hundredths);
};

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  for (const teamId of [1, 2]) {
    await app.commands.registerTeam({ teamId, teamName: `Logi ${teamId}`, description: '', joinCode: `LOGI${teamId}ABC`, icon: null }, as(SYSTEM));
    await app.commands.registerParticipant({
      participantId: teamId * 10 + 1, teamId, fullName: `Liige ${teamId}`, email: `liige${teamId}@example.ee`, birthYear: 1980, gender: 'FEMALE',
      isCaptain: true, newsletter: false,
    }, as(SYSTEM));
  }
  await app.ids.reserveThrough('entry', 100);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

test('the read models keep no second copy of the entries', async () => {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'rm' AND tablename = 'stats_entry_ledger'`.execute(app.db);
  expect(rows[0]!.n).toBe(0);
});

test('an edit and a deletion in later batches move the km from what the entry\'s stream says', async () => {
  const { entry } = await app.commands.addEntry({ participantId: 11, distance: 10, entryType: 'WALK', performedAt: '2025-04-19' }, as(SYSTEM));
  await project();
  expect(await teamKm(1)).toBe(1000);
  await app.commands.editEntry(entry.id, { participantId: 11, distance: 4.5, entryType: 'RUN', performedAt: '2025-04-20' }, as(SYSTEM));
  await project();
  expect(await teamKm(1)).toBe(450);
  const days = await app.db.withSchema('rm').selectFrom('team_daily_distance').select(['day', 'distance_hundredths']).where('team_id', '=', 1).execute();
  expect(days.map((d) => [String(d.day), Number(d.distance_hundredths)])).toEqual([['2025-04-20', 450]]);
  await app.commands.deleteEntries([entry.id], as(SYSTEM));
  await project();
  expect(await teamKm(1)).toBe(0);
});

test('the entries of a team deleted in an earlier batch count for nothing: no placeholder team comes back', async () => {
  const { entry } = await app.commands.addEntry({ participantId: 21, distance: 7, entryType: 'WALK', performedAt: '2025-04-19' }, as(SYSTEM));
  await project();
  expect(await teamKm(2)).toBe(700);
  // The team's deletion alone, then its entry's in a later append (a deletion's later events).
  await app.store.appendToStream(streams.team(2), [{
    id: randomUUID(), type: 'TeamDeleted', schemaVersion: SCHEMA_VERSIONS.TeamDeleted,
    data: { teamId: 2, deletedAt: '2025-04-20T09:00:00.000Z' }, metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'from-log', causationId: null },
  }], { expectedRevision: 'any' });
  await project();
  expect(await teamKm(2)).toBeUndefined();
  await app.commands.deleteEntries([entry.id], as(SYSTEM));
  await project();
  expect(await teamKm(2)).toBeUndefined();
  const totals = await app.db.withSchema('rm').selectFrom('stats_totals').selectAll().executeTakeFirstOrThrow();
  expect(totals.teams).toBe(1);
});
