/**
 * The projector's batches of every projection together (services/projector, applyTogether of
 * @sinilill/read-models, docs/decisions/0102), against a real PostgreSQL log and Redis:
 *
 * - a backlog is read in batches that start small and double while they come back full;
 * - one batch moves every projection's checkpoint in one transaction (one commit);
 * - a projection whose apply fails (not a data failure: nothing to park) holds nobody back: the
 *   batch together rolls back, each projection then runs alone, the others reach the head and
 *   the failing one catches up once it applies again;
 * - a wake-up that never came (an append without one) is caught up by the sweep.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { CommandRequest } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import { FIRST_BATCH, startProjector, type ProjectorBatch } from '@sinilill/projector';
import { projections, readCheckpoints, type Projection } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { eventually } from '../support/stack';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
let app: TestApplication;
let serial = 0;
const system = (): CommandRequest => {
  serial += 1;
  return { actor: SYSTEM, metadata: { commandId: `together-${serial}-${randomUUID()}`, correlationId: `together-${serial}`, causationId: null } };
};
let nextTeam = 1;
/** Registers `count` teams (one event each), with no wake-up sent. */
async function registerTeams(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const teamId = nextTeam++;
    await app.commands.registerTeam({ teamId, teamName: `Meeskond ${teamId}`, description: '', joinCode: `TG${String(teamId).padStart(6, '0')}`, icon: null }, system());
  }
}

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

test('a backlog is caught up in batches that start small and double, every projection in each one', async () => {
  await registerTeams(FIRST_BATCH * 3 + 10);
  const head = await app.store.headPosition();
  const batches: ProjectorBatch[] = [];
  const projector = await startProjector({
    db: app.db, store: app.store, projections, redisUrl: inject('redisUrl'), prefix: `tg${randomUUID().slice(0, 8)}`,
    sweepIntervalMs: 3_600_000, batchSize: FIRST_BATCH * 2, onBatch: (batch) => batches.push(batch),
  });
  try {
    // The start-up catch-up has run: every checkpoint at the head.
    const checkpoints = await readCheckpoints(app.db);
    for (const projection of projections) expect(checkpoints[projection.name]).toBe(head);
    // team-stats read FIRST_BATCH, then twice that (the cap here), until the head.
    const sizes = batches.filter((b) => b.projection === 'team-stats').map((b) => b.read);
    expect(sizes[0]).toBe(FIRST_BATCH);
    expect(sizes.slice(1, -1).every((size) => size === FIRST_BATCH * 2)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(head);
    // Every projection moved in the same batches: the same positions at the same commit.
    const positionsOf = (name: string) => batches.filter((b) => b.projection === name).map((b) => `${b.position}@${b.endedAt}`);
    for (const projection of projections) expect(positionsOf(projection.name)).toEqual(positionsOf('team-stats'));
  } finally {
    await projector.close();
  }
});

test('a projection that fails holds nobody back: the others reach the head, it catches up once it applies again', async () => {
  let failing = true;
  const broken: Projection[] = projections.map((projection) => projection.name !== 'team-directory' ? projection : {
    ...projection,
    async apply(db, events, context) {
      // Not a data failure (no SQLSTATE 22/23, no FoldError): nothing to park, the batch must fail.
      if (failing) throw new Error('the read-model database went away');
      await projection.apply(db, events, context);
    },
  });
  const log: { message: string; details: Record<string, unknown> }[] = [];
  const projector = await startProjector({
    db: app.db, store: app.store, projections: broken, redisUrl: inject('redisUrl'), prefix: `tg${randomUUID().slice(0, 8)}`,
    sweepIntervalMs: 200, log: (message, details = {}) => log.push({ message, details }),
  });
  try {
    const before = (await readCheckpoints(app.db))['team-directory']!;
    await registerTeams(3);
    const head = await app.store.headPosition();
    // No wake-up was sent: the sweep finds the events; the others reach the head alone.
    await eventually(async () => {
      const checkpoints = await readCheckpoints(app.db);
      return projections.every((p) => p.name === 'team-directory' || checkpoints[p.name] === head);
    }, 15_000);
    expect((await readCheckpoints(app.db))['team-directory']).toBe(before);
    expect(log.some((line) => line.message === 'batch of every projection failed; each projection alone')).toBe(true);
    expect(log.some((line) => line.message === 'projection run failed' && line.details.projection === 'team-directory')).toBe(true);

    failing = false;
    await eventually(async () => (await readCheckpoints(app.db))['team-directory'] === head, 15_000);
    const code = await app.db.withSchema('rm').selectFrom('team_join_codes').select('join_code').where('team_id', '=', nextTeam - 1).executeTakeFirst();
    expect(code?.join_code).toBe(`TG${String(nextTeam - 1).padStart(6, '0')}`);
  } finally {
    await projector.close();
  }
});

test('an event whose data fails is parked by the batch together (applied again with savepoints), the rest of the batch applied', async () => {
  const poisoned: Projection[] = projections.map((projection) => projection.name !== 'team-stats' ? projection : {
    ...projection,
    async apply(db, events, context) {
      // A data failure as PostgreSQL reports one (SQLSTATE class 22): the runner parks its event.
      if (events.some((event) => (event.data as { teamName?: string }).teamName === 'Mürgine')) {
        throw Object.assign(new Error('invalid parameter value'), { code: '22023', severity: 'ERROR' });
      }
      await projection.apply(db, events, context);
    },
  });
  const before = await app.store.headPosition();
  const first = nextTeam;
  await registerTeams(1);
  await app.commands.registerTeam({ teamId: nextTeam, teamName: 'Mürgine', description: '', joinCode: `TG${String(nextTeam).padStart(6, '0')}`, icon: null }, system());
  const poisonedTeam = nextTeam++;
  await registerTeams(1);
  const head = await app.store.headPosition();
  const messages: string[] = [];
  const projector = await startProjector({
    db: app.db, store: app.store, projections: poisoned, redisUrl: inject('redisUrl'), prefix: `tg${randomUUID().slice(0, 8)}`, sweepIntervalMs: 3_600_000,
    log: (message) => messages.push(message),
  });
  try {
    // The start-up catch-up read the three events in one batch.
    expect((await readCheckpoints(app.db))['team-stats']).toBe(head);
    const parked = await app.db.withSchema('rm').selectFrom('parked_events').select(['position', 'status'])
      .where('projection', '=', 'team-stats').where('position', '>', before).execute();
    expect(parked).toEqual([{ position: before + 2, status: 'parked' }]);
    const teams = await app.db.withSchema('rm').selectFrom('team_stats').select('team_id')
      .where('team_id', '>=', first).orderBy('team_id').execute();
    expect(teams.map((t) => t.team_id)).toEqual([first, poisonedTeam + 1]);
    // Parked by the batch together itself, not by the projections going alone after it failed.
    expect(messages).not.toContain('batch of every projection failed; each projection alone');
    expect(messages).toContain('event parked');
  } finally {
    await projector.close();
  }
});
