/**
 * team_daily_distance must not depend on where the projector's batches end (found by the
 * many-processes test): an entry added in one batch and moved to another day or
 * deleted in a later one left a 0-km row live, which a replay (one batch for both events) never
 * writes, so the read models differed from a replay from zero. A day whose km come back to 0 now
 * loses its row (a missing row reads as 0 km).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CommandRequest } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
let app: TestApplication;
let serial = 0;
const system = (): CommandRequest => {
  serial += 1;
  return { actor: SYSTEM, metadata: { commandId: `daily-${serial}`, correlationId: `daily-${serial}`, causationId: null } };
};

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  await app.commands.registerTeam({ teamId: 1, teamName: 'Päevad', description: '', joinCode: 'DAYS1ABC', icon: null }, system());
  await app.commands.registerParticipant({
    participantId: 1, teamId: 1, fullName: 'Mari', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE', isCaptain: true, newsletter: false,
  }, system());
  await app.project();
}, 120_000);
afterAll(async () => app?.close());

const days = async () => (await app.db.withSchema('rm').selectFrom('team_daily_distance').select(['day', 'distance_hundredths'])
  .where('team_id', '=', 1).orderBy('day').execute()).map((row) => [String(row.day), Number(row.distance_hundredths)]);

test('an entry moved to another day, and one deleted, in later batches leave no 0-km rows; a replay gives the same rows', async () => {
  const moved = (await app.commands.addEntry({ participantId: 1, distance: 5, entryType: 'WALK', performedAt: '2025-04-10' }, system())).entry;
  const deleted = (await app.commands.addEntry({ participantId: 1, distance: 3, entryType: 'WALK', performedAt: '2025-04-11' }, system())).entry;
  await app.commands.addEntry({ participantId: 1, distance: 2, entryType: 'WALK', performedAt: '2025-04-12' }, system());
  await app.project();
  expect(await days()).toHaveLength(3);
  await app.commands.editEntry(moved.id, { participantId: 1, distance: 5, entryType: 'WALK', performedAt: '2025-04-12' }, system());
  await app.commands.deleteEntries([deleted.id], system());
  await app.project();
  const live = await days();
  expect(live.map(([, km]) => km)).toEqual([700]);
  const replay = await rebuildReadModels(app.db, app.store, projections);
  expect(replay.checksums.filter((c) => !c.match).map((c) => c.table)).toEqual([]);
  expect(await days()).toEqual(live);
}, 60_000);
