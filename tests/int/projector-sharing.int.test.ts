/**
 * Projector processes share the projections (services/projector/src/leases.ts):
 *
 * - two projectors catching up the 2025 edition from checkpoint 0 split the five projections
 *   (neither holds all), work at the same time (their batches overlap), read every event exactly
 *   once per projection, and end with read models identical to one projector's;
 * - a third joining takes a share (each holds one or two), closing one hands its projections to
 *   the others within a sweep or two, and what is appended afterwards is projected;
 * - a projector whose lease connection breaks (the server ends its session) stops working what it
 *   held, opens a new one and gets its share back;
 * - a projector process killed with SIGKILL frees its leases with its connection: the survivor
 *   takes them within a sweep or two and the read models catch up.
 *
 * Projectors in this process each have their own pool and lease connection (pg_locks sees them as
 * separate sessions, as it sees separate processes); the last test runs real processes
 * (services/projector/src/server.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { importEdition } from '@sinilill/cli';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import { startProjector, type ProjectorOptions, type RunningProjector } from '@sinilill/projector';
import { createReadModelDb, projections, readCheckpoints, type ReadModelDatabase } from '@sinilill/read-models';
import { freshReadModels } from '../bench/projector-share';
import { spawnService, type ServiceProcess } from '../support/service-process';
import { eventually } from '../support/stack';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';

type Batch = Parameters<NonNullable<ProjectorOptions['onBatch']>>[0];

const SWEEP_MS = 250;
const NAMES = projections.map((p) => p.name);
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

let app: TestApplication;
let head = 0;
const prefix = `share${randomUUID().slice(0, 8)}`;
const pools: pg.Pool[] = [];
const running = new Set<RunningProjector>();
const services: ServiceProcess[] = [];
const dataDir = mkdtempSync(join(repoRoot, '.tmp-share-'));

interface Instance {
  projector: RunningProjector;
  /** Every batch it committed, in order. */
  batches: Batch[];
  /** Every message it logged or warned, in order. */
  messages: string[];
  close(): Promise<void>;
}

/** A projector in this process with a pool, a store and a lease connection of its own. */
async function startInstance(options: { batchSize?: number; shared?: boolean } = {}): Promise<Instance> {
  const pool = new pg.Pool({ connectionString: app.url, max: 8 });
  pools.push(pool);
  const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
  const batches: Batch[] = [];
  const messages: string[] = [];
  const projector = await startProjector({
    db: createReadModelDb(pool), store, projections, redisUrl: inject('redisUrl'), prefix, sweepIntervalMs: SWEEP_MS,
    ...(options.shared === false ? {} : { databaseUrl: app.url }),
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    onBatch: (batch) => batches.push(batch),
    log: (message) => messages.push(message),
  });
  running.add(projector);
  return {
    projector, batches, messages,
    async close() {
      await projector.close();
      running.delete(projector);
    },
  };
}

/** Every projection's checkpoint is at `position`. */
async function caughtUpTo(position: number): Promise<boolean> {
  const checkpoints = await readCheckpoints(app.db);
  return NAMES.every((name) => checkpoints[name] === position);
}

/**
 * True when the instances hold every projection between them, none twice, each at most
 * ceil(5 / n) and at least one — by their own word and by pg_locks (one holder per projection,
 * as many holders as instances).
 */
async function fairlySplit(instances: readonly Instance[]): Promise<boolean> {
  const helds = instances.map((i) => i.projector.held());
  const all = helds.flat();
  const share = Math.ceil(NAMES.length / instances.length);
  if (all.length !== NAMES.length || new Set(all).size !== NAMES.length) return false;
  if (!helds.every((held) => held.length >= 1 && held.length <= share)) return false;
  const holders = await instances[0]!.projector.leaseHolders();
  return NAMES.every((name) => holders[name] !== null) && new Set(Object.values(holders)).size === instances.length;
}

/** Every rm table's rows as JSON, sorted, without the wall-clock columns (updated_at, parked_at). */
async function readModelSnapshot(db: Kysely<ReadModelDatabase>): Promise<Record<string, unknown>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'rm' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%' ORDER BY 1`.execute(db);
  const snapshot: Record<string, unknown> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ rows: unknown }>`
      SELECT coalesce(jsonb_agg(j ORDER BY j::text), '[]'::jsonb) AS rows
        FROM (SELECT to_jsonb(t) - 'updated_at' - 'parked_at' AS j FROM ${sql.table(`rm.${name}`)} t) x`.execute(db);
    snapshot[name] = rows[0]!.rows;
  }
  return snapshot;
}

/** Sum of every team's distance, hundredths of a km. */
async function teamDistance(): Promise<number> {
  const row = await app.db.withSchema('rm').selectFrom('team_stats')
    .select((eb) => eb.fn.sum<number>('distance_hundredths').as('sum')).executeTakeFirstOrThrow();
  return Number(row.sum);
}

/** Adds `count` entries of 1.25 km through the command side and wakes the projections; the new head. */
async function addEntries(count: number, publisher: WakeUpPublisher): Promise<number> {
  const participants = await app.db.withSchema('rm').selectFrom('team_members').select('participant_id')
    .orderBy('participant_id').limit(count).execute();
  let position = 0;
  for (const [i, { participant_id }] of participants.entries()) {
    const result = await app.commands.addEntry(
      { participantId: participant_id, distance: 1.25, entryType: 'WALK', performedAt: '2025-04-15' },
      { actor: SYSTEM, metadata: { commandId: `${prefix}-${Date.now()}-${i}`, correlationId: prefix, causationId: null } },
    );
    position = result.position;
    await publisher.wake(position);
  }
  return position;
}

beforeAll(async () => {
  app = await testApplication();
  await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, ids: app.ids });
  head = await app.store.headPosition();
}, 300_000);

afterAll(async () => {
  await Promise.all([...running].map((projector) => projector.close()));
  await Promise.all(services.map((service) => service.kill()));
  await Promise.all(pools.map((pool) => pool.end()));
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('two projectors split a backlog, work at once, and end with the read models of one', async () => {
  expect(head).toBeGreaterThan(15_000);
  // Small batches: many of them, so that both projectors are seen at work at the same time.
  const [a, b] = await Promise.all([startInstance({ batchSize: 500 }), startInstance({ batchSize: 500 })]);
  await eventually(() => caughtUpTo(head), 120_000);
  await eventually(() => fairlySplit([a, b]), 10_000);
  expect(a.projector.held().length).toBeLessThan(NAMES.length);
  expect(b.projector.held().length).toBeLessThan(NAMES.length);

  // Both worked, at the same time.
  expect(a.batches.length).toBeGreaterThan(0);
  expect(b.batches.length).toBeGreaterThan(0);
  const overlapping = a.batches.filter((x) => b.batches.some((y) => x.startedAt < y.endedAt && y.startedAt < x.endedAt));
  expect(overlapping.length).toBeGreaterThan(0);

  // Per projection, the batches of both read the log once: positions only rise, and the events
  // read add up to the head (none twice, none skipped).
  for (const name of NAMES) {
    const batches = [...a.batches, ...b.batches].filter((x) => x.projection === name).sort((x, y) => x.endedAt - y.endedAt);
    const positions = batches.map((x) => x.position);
    expect(positions, name).toEqual([...positions].sort((x, y) => x - y));
    expect(new Set(positions).size, name).toBe(positions.length);
    expect(batches.reduce((sum, x) => sum + x.read, 0), name).toBe(head);
  }
  expect(await app.totals()).toEqual(FIGURES_2025);
  const shared = await readModelSnapshot(app.db);
  await Promise.all([a.close(), b.close()]);

  // The same log from checkpoint 0 by one projector alone.
  await freshReadModels(app.db);
  expect(await readCheckpoints(app.db)).toEqual({});
  const alone = await startInstance();
  await eventually(() => caughtUpTo(head), 120_000);
  expect(alone.projector.held().sort()).toEqual([...NAMES].sort());
  expect(await readModelSnapshot(app.db)).toEqual(shared);
  await alone.close();
  console.log(`sharing: ${head} events; batches ${a.batches.length} + ${b.batches.length}, ${overlapping.length} of the first's overlapping the second's`);
}, 300_000);

test('a third projector takes a share; one closing hands its projections over; appended events are projected', async () => {
  const publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
  try {
    const a = await startInstance();
    const b = await startInstance();
    await eventually(() => fairlySplit([a, b]), 10_000);

    const c = await startInstance();
    const joined = performance.now();
    await eventually(() => fairlySplit([a, b, c]), 10_000);
    const rebalanceMs = performance.now() - joined;

    const heldByB = b.projector.held();
    await b.close();
    const closed = performance.now();
    await eventually(() => fairlySplit([a, c]), 10_000);
    const handoverMs = performance.now() - closed;
    for (const name of heldByB) expect([...a.projector.held(), ...c.projector.held()]).toContain(name);

    const before = await teamDistance();
    const added = await addEntries(20, publisher);
    await eventually(() => caughtUpTo(added), 20_000);
    expect(await teamDistance()).toBe(before + 20 * 125);
    console.log(`sharing: a third projector got its share in ${rebalanceMs.toFixed(0)} ms; a closed one's went over in ${handoverMs.toFixed(0)} ms (sweep ${SWEEP_MS} ms)`);
    // "Within a sweep or two", with room for a busy machine.
    expect(handoverMs).toBeLessThan(8 * SWEEP_MS);
    await Promise.all([a.close(), c.close()]);
  } finally {
    await publisher.close();
  }
}, 120_000);

test('a projector whose lease connection breaks stops working its share, reconnects and gets a share again', async () => {
  const publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
  try {
    const a = await startInstance();
    const b = await startInstance();
    await eventually(() => fairlySplit([a, b]), 10_000);
    const holders = await a.projector.leaseHolders();
    const leasePidOfA = holders[a.projector.held()[0]!]!;
    // As when PostgreSQL restarts or the network drops the connection: the session ends, and its
    // leases with it.
    await sql`SELECT pg_terminate_backend(${leasePidOfA})`.execute(app.db);
    await eventually(async () => a.messages.some((message) => message.startsWith('lease connection lost')), 5_000);
    await eventually(() => fairlySplit([a, b]), 10_000);
    expect(Object.values(await a.projector.leaseHolders())).not.toContain(leasePidOfA);

    const before = await teamDistance();
    const added = await addEntries(10, publisher);
    await eventually(() => caughtUpTo(added), 20_000);
    expect(await teamDistance()).toBe(before + 10 * 125);
    await Promise.all([a.close(), b.close()]);
  } finally {
    await publisher.close();
  }
}, 120_000);

test('a projector process killed with SIGKILL: the other takes its projections and the read models catch up', async () => {
  const env = {
    DATABASE_URL: app.url, REDIS_URL: inject('redisUrl'), BULLMQ_PREFIX: prefix, DATA_DIR: dataDir, LOG_LEVEL: 'info',
    SWEEP_INTERVAL_MS: '500', JWT_SECRET: 'share-test-secret-0123456789-0123456789',
    EMAIL_INDEX_SECRET: 'share-test-email-index-0123456789-0123', SANDBOX_PAYMENT_SECRET: 'share-test-sandbox-0123456789-0123456789',
  };
  /** What a process last said it holds ('ready' or 'leases changed'). */
  const heldBy = (service: ServiceProcess): string[] => {
    const lines = service.logLines().filter((line) => line.msg === 'leases changed' || line.msg === 'ready');
    return (lines.at(-1)?.held as string[] | undefined) ?? [];
  };
  const first = spawnService('services/projector/src/server.ts', env);
  const second = spawnService('services/projector/src/server.ts', env);
  services.push(first, second);
  const split = async () => {
    const [x, y] = [heldBy(first), heldBy(second)];
    return x.length > 0 && y.length > 0 && new Set([...x, ...y]).size === NAMES.length && x.length + y.length === NAMES.length;
  };
  try {
    await eventually(split, 60_000);
  } catch (error) {
    throw new Error(`${String(error)}\n${first.output().slice(-2000)}\n---\n${second.output().slice(-2000)}`);
  }

  await second.kill();
  const killed = performance.now();
  await eventually(async () => heldBy(first).length === NAMES.length, 10_000);
  const takeoverMs = performance.now() - killed;

  const publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix });
  try {
    const before = await teamDistance();
    const added = await addEntries(10, publisher);
    await eventually(() => caughtUpTo(added), 20_000);
    expect(await teamDistance()).toBe(before + 10 * 125);
  } finally {
    await publisher.close();
  }
  console.log(`sharing: a SIGKILLed projector's projections taken over in ${takeoverMs.toFixed(0)} ms (sweep 500 ms)`);
  expect(takeoverMs).toBeLessThan(4_000);
  first.signal('SIGTERM');
  expect((await first.exited).code).toBe(0);
}, 180_000);
