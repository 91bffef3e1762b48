/**
 * The copy CLI between two PostgreSQL databases, through the EventStore
 * interface only (the code path that moves the log to KurrentDB): the 2025 export is imported into
 * database A (one person's key erased), copied into a fresh database B with its subject keys
 * (copySubjectKeys + copyLog, what `npm run copy-log` runs), and
 * - the checksums match, and every event's id, stream, revision, type, schema version, data and
 *   metadata are A's, in A's order, the original position and time in metadata.copiedFrom;
 * - a replay of B's read models answers GET /api/stats as A does (the 2025 figures), and personal
 *   data decrypts on B (the kept person's name) or stays erased (the erased one's);
 * - a copy interrupted after about half (an append that reached the database but whose answer was
 *   lost) is finished by `copy-log` itself (the CLI entry, as a process): the log equal, nothing twice;
 * - a target holding another log is refused before anything is appended.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { copyLog, copySubjectKeys, importEdition, logChecksum, migrateToLatest, replay, TargetNotPrefixError, type CopyLogResult, type SubjectKeysCopy } from '@sinilill/cli';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS, streams } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type AppendRequest, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { buildQueryApi, type TeamChangeFeed } from '@sinilill/query-api';
import { createReadModelDb } from '@sinilill/read-models';
import { FIGURES_2025, FIXTURE_DIR, fixturePeople, testApplication, type TestApplication } from '../support/app';

const NOW = new Date('2025-04-20T10:00:00Z');
const silentFeed: TeamChangeFeed = { subscribe: () => () => undefined };

/** GET /api/stats over `pool`'s read models. */
async function stats(pool: pg.Pool): Promise<unknown> {
  const api: FastifyInstance = buildQueryApi({ db: createReadModelDb(pool), now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: 'copy-log-test-secret-0123456789-0123456789', changes: silentFeed });
  try {
    const response = await api.inject({ url: '/api/stats' });
    expect(response.statusCode).toBe(200);
    return response.json();
  } finally {
    await api.close();
  }
}

/** Every event of a store, raw, in global order. */
async function allEvents(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let after = 0; ;) {
    const batch = await store.readAll({ after, maxCount: 5000 });
    if (batch.length === 0) return events;
    events.push(...batch);
    after = batch[batch.length - 1]!.globalPosition;
  }
}

/** A fresh database, migrated like the app's. */
async function freshDatabase(label: string): Promise<{ url: string; pool: pg.Pool }> {
  const url = await createScratchDatabase(inject('databaseServerUrl'), label);
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  await migrateToLatest(pool);
  return { url, pool };
}

const protectedStore = (pool: pg.Pool) => withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS);

async function nameOf(store: EventStore, participantId: number): Promise<unknown> {
  const events = await store.readStream(streams.participant(participantId));
  return (events.find((e) => e.type === 'ParticipantRegistered')?.data as { fullName?: unknown } | undefined)?.fullName;
}

describe('copy-log between two PostgreSQL databases', () => {
  let a: TestApplication;
  let rawA: PostgresEventStore;
  let b: { url: string; pool: pg.Pool };
  let rawB: PostgresEventStore;
  let copy: CopyLogResult;
  let keys: SubjectKeysCopy;
  let statsA: unknown;
  const pools: pg.Pool[] = [];
  const people = fixturePeople();
  const [kept, erased] = [people[0]!, people[1]!];

  beforeAll(async () => {
    a = await testApplication({ now: () => NOW });
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: a.store, ids: a.ids });
    await a.project();
    statsA = await stats(a.pool);
    await new PersonalDataVault({ pool: a.pool }).forget(`participant-${erased.id}`);
    rawA = new PostgresEventStore({ pool: a.pool });

    b = await freshDatabase('copy_b');
    pools.push(b.pool);
    rawB = new PostgresEventStore({ pool: b.pool });
    keys = await copySubjectKeys(a.pool, b.pool);
    copy = await copyLog({ source: rawA, target: rawB });
  });

  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await a?.close();
  });

  test('the checksums match, over the whole log', async () => {
    const head = Number((await a.pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events')).rows[0]!.n);
    expect(head).toBeGreaterThan(15_000);
    expect(copy).toMatchObject({ alreadyThere: 0, copied: head, match: true, sourceGrew: false });
    expect(copy.source).toEqual({ ...copy.target, lastPosition: copy.source.lastPosition });
    expect(copy.source.events).toBe(head);
    // The measurement quoted in docs/event-store-engines.md.
    console.log(`copy-log 2025: ${copy.copied} events in ${copy.appends} appends, ${(copy.copyMs / 1000).toFixed(2)} s; checksums ${(copy.checksumMs / 1000).toFixed(2)} s`);
  });

  test('every event is A\'s, in order: id, stream, revision, type, data, metadata; the origin in copiedFrom', async () => {
    const [fromA, onB] = await Promise.all([allEvents(rawA), allEvents(rawB)]);
    expect(onB.length).toBe(fromA.length);
    fromA.forEach((source, i) => {
      const copied = onB[i]!;
      const { copiedFrom, ...metadata } = copied.metadata as typeof copied.metadata & { copiedFrom?: unknown };
      expect([copied.id, copied.stream, copied.revision, copied.type, copied.schemaVersion]).toEqual([source.id, source.stream, source.revision, source.type, source.schemaVersion]);
      expect(copied.data).toEqual(source.data);
      expect(metadata).toEqual(source.metadata);
      expect(copiedFrom).toEqual({ globalPosition: source.globalPosition, recordedAt: source.recordedAt.toISOString() });
    });
  });

  test('a replay on B answers /api/stats as A does; personal data decrypts on B, the erased person stays erased', async () => {
    expect(keys.inserted).toBe(keys.subjects);
    expect(keys.subjects).toBeGreaterThanOrEqual(FIGURES_2025.participants);
    const erasedOnB = await b.pool.query('SELECT key, erased_at FROM es.subject_keys WHERE subject = $1', [`participant-${erased.id}`]);
    expect(erasedOnB.rows[0]).toMatchObject({ key: null, erased_at: expect.any(Date) });
    const storeB = protectedStore(b.pool);
    expect(await nameOf(storeB, kept.id)).toBe(kept.fullName);
    expect(await nameOf(storeB, erased.id)).toBeNull();
    const replayed = await replay(createReadModelDb(b.pool), storeB);
    expect(replayed.after).toEqual(FIGURES_2025);
    expect(await stats(b.pool)).toEqual(statsA);
  });

  test('an interrupted copy is finished by the copy-log command: the log equal, nothing twice', async () => {
    const c = await freshDatabase('copy_c');
    pools.push(c.pool);
    const rawC = new PostgresEventStore({ pool: c.pool });
    // About half-way, an append reaches the database but its answer is lost (a crash, a cut connection).
    const half = Math.floor(copy.appends / 2);
    let calls = 0;
    const crashing: EventStore = Object.assign(Object.create(rawC) as EventStore, {
      appendToStreams: async (requests: AppendRequest[]) => {
        const results = await rawC.appendToStreams(requests);
        calls += 1;
        if (calls === half) throw new Error('connection lost');
        return results;
      },
    });
    await expect(copyLog({ source: rawA, target: crashing })).rejects.toThrow(/connection lost/);
    const held = Number((await c.pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events')).rows[0]!.n);
    expect(held).toBeGreaterThan(copy.copied / 4);
    expect(held).toBeLessThan(copy.copied);

    // The rest through the CLI entry; the source is the configured database (DATABASE_URL).
    const dataDir = mkdtempSync(join(tmpdir(), 'sinilill-copy-log-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/cli/src/main.ts'), 'copy-log', '--to-database', c.url], {
        cwd: repoRoot, encoding: 'utf8', timeout: 60_000,
        env: { ...process.env, DATABASE_URL: a.url, REDIS_URL: '', DATA_DIR: dataDir, EVENT_STORE: 'postgres' },
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`copied ${copy.copied - held} events`);
      expect(run.stdout).toContain(`(${held} already in the target)`);
      expect(run.stdout).toContain(`source checksum: sha256 ${copy.source.sha256} over ${copy.copied} events`);
      expect(run.stdout).toContain(`target checksum: sha256 ${copy.source.sha256} over ${copy.copied} events`);
      expect(run.stdout).toContain('checksums match');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const ids = (await c.pool.query<{ n: string; distinct: string }>('SELECT count(*) AS n, count(DISTINCT event_id) AS distinct FROM es.events')).rows[0]!;
    expect([Number(ids.n), Number(ids.distinct)]).toEqual([copy.copied, copy.copied]);
    expect(await logChecksum(rawC)).toEqual(copy.target);
  });

  test('a target holding another log is refused, and nothing is appended to it', async () => {
    const d = await freshDatabase('copy_d');
    pools.push(d.pool);
    const rawD = new PostgresEventStore({ pool: d.pool });
    const [first] = await rawA.readAll({ after: 0, maxCount: 1 });
    await rawD.appendToStream(first!.stream, [{ id: '6f1c2a3b-0000-4000-8000-000000000001', type: first!.type, schemaVersion: first!.schemaVersion, data: first!.data, metadata: first!.metadata }], { expectedRevision: 'no_stream' });
    await expect(copyLog({ source: rawA, target: rawD })).rejects.toThrow(TargetNotPrefixError);
    expect(Number((await d.pool.query<{ n: string }>('SELECT count(*) AS n FROM es.events')).rows[0]!.n)).toBe(1);
  });
});
