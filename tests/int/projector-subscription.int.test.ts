/**
 * The projector follows an engine's live feed of the log (EventStore.subscribe, KurrentDB's
 * catch-up subscription). No KurrentDB server runs here, so the feed is the
 * test's own, standing where the engine's would: events are appended to a real PostgreSQL log
 * without any wake-up (no BullMQ job, a sweep an hour away), and the projections move only when
 * the feed tells of them; a failed feed is opened again from the last position it told.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { CommandRequest } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import type { SubscribeOptions } from '@sinilill/event-store';
import { startProjector, type RunningProjector } from '@sinilill/projector';
import { createReadModelDb, projections, readCheckpoints } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { eventually } from '../support/stack';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
let app: TestApplication;
let pool: pg.Pool;
let projector: RunningProjector;
/** Every subscription the projector opened, in order, with what it asked for. */
const opened: SubscribeOptions[] = [];
let closedFeeds = 0;
let serial = 0;
const system = (): CommandRequest => {
  serial += 1;
  return { actor: SYSTEM, metadata: { commandId: `feed-${serial}`, correlationId: `feed-${serial}`, causationId: null } };
};

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  await app.commands.registerTeam({ teamId: 1, teamName: 'Voog', description: '', joinCode: 'FEED1ABC', icon: null }, system());
  await app.project();
  pool = new pg.Pool({ connectionString: app.url, max: 4 });
  projector = await startProjector({
    db: createReadModelDb(pool), store: app.store, projections, redisUrl: inject('redisUrl'),
    prefix: `feed${randomUUID().slice(0, 8)}`, sweepIntervalMs: 3_600_000,
    subscribe: (options) => {
      opened.push(options);
      return { close: async () => { closedFeeds += 1; } };
    },
  });
}, 120_000);

afterAll(async () => {
  await projector?.close();
  await pool?.end();
  await app?.close();
});

/** team-stats' checkpoint (it handles the team registrations this test appends). */
async function teamStatsCheckpoint(): Promise<number> {
  return (await readCheckpoints(app.db))['team-stats'] ?? 0;
}

test('the feed opens at the head with the projections\' event types, and only its events move the projections', async () => {
  const head = await app.store.headPosition();
  expect(opened).toHaveLength(1);
  expect(opened[0]!.after).toBe(head);
  expect(opened[0]!.types).toEqual(expect.arrayContaining(['EntryAdded', 'TeamRegistered', 'ParticipantRegistered']));

  // Appended without a wake-up: nothing tells the projector but the feed.
  await app.commands.registerTeam({ teamId: 2, teamName: 'Tuul', description: '', joinCode: 'FEED2ABC', icon: null }, system());
  const after = await app.store.headPosition();
  expect(after).toBeGreaterThan(head);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(await teamStatsCheckpoint()).toBe(head);

  opened[0]!.onEvent(after);
  await eventually(async () => (await teamStatsCheckpoint()) === after, 5000);
  const team = await app.db.withSchema('rm').selectFrom('team_stats').select('team_name').where('team_id', '=', 2).executeTakeFirst();
  expect(team?.team_name).toBe('Tuul');
});

test('a failed feed is opened again from the last position it told, and the projector closes the one it holds', async () => {
  const told = await app.store.headPosition();
  opened.at(-1)!.onError?.(new Error('the subscription broke'));
  await eventually(async () => opened.length === 2, 5000);
  expect(opened[1]!.after).toBe(told);

  await app.commands.registerTeam({ teamId: 3, teamName: 'Vihm', description: '', joinCode: 'FEED3ABC', icon: null }, system());
  const after = await app.store.headPosition();
  opened[1]!.onEvent(after);
  await eventually(async () => (await teamStatsCheckpoint()) === after, 5000);

  await projector.close();
  expect(closedFeeds).toBe(1);
});
