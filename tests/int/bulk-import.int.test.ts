/**
 * The bulk import on real PostgreSQL: the 2025 export decided in memory and
 * appended in large batches gives exactly the events and account-table rows of the
 * command-by-command import (same ids, streams, revisions, data and metadata), the published
 * figures once projected, and nothing on a second run; a synthetic edition projects to the
 * totals its rows add up to; a refused row stops the import with "import stopped at <row>" after
 * the rows before it (in its batch too) and before nothing after it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { importEdition, importRows, syntheticEdition, type ImportProgress, type ImportResult } from '@sinilill/cli';
import { AccountDirectory, CommandService, eventIdFor } from '@sinilill/commands';
import { edition2025 } from '@sinilill/domain/seed';
import { deriveTeamFigures } from '@sinilill/read-models';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';
import { smallEdition } from '../support/small-edition';

const INDEX_SECRET = 'bulk-import-test-index-secret-0123';

/** A test application with the account tables wired in (own pool, as the CLI's). */
async function withAccounts(): Promise<{ app: TestApplication; pool: pg.Pool; directory: AccountDirectory; close(): Promise<void> }> {
  const app = await testApplication();
  const pool = new pg.Pool({ connectionString: app.url, max: 4 });
  const directory = new AccountDirectory({ pool, indexSecret: INDEX_SECRET });
  return { app, pool, directory, close: async () => { await pool.end(); await app.close(); } };
}

/** Every event of the log, by event id. */
async function allEvents(store: EventStore): Promise<Map<string, RecordedEvent>> {
  const events = new Map<string, RecordedEvent>();
  for (let after = 0; ;) {
    const batch = await store.readAll({ after, maxCount: 5000 });
    if (batch.length === 0) return events;
    for (const event of batch) events.set(event.id, event);
    after = batch.at(-1)!.globalPosition;
  }
}

/** An event without where and when it was stored (positions differ between two imports). */
function content(event: RecordedEvent) {
  return { stream: event.stream, revision: event.revision, type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata };
}

async function rows(pool: pg.Pool, sql: string): Promise<unknown[]> {
  return (await pool.query(sql)).rows;
}

describe('the 2025 edition imported in bulk', () => {
  let bulk: Awaited<ReturnType<typeof withAccounts>>;
  let oneByOne: Awaited<ReturnType<typeof withAccounts>>;
  let first: ImportResult;
  let head = 0;
  const progress: ImportProgress[] = [];
  const phasePositions: number[] = [];

  beforeAll(async () => {
    [bulk, oneByOne] = await Promise.all([withAccounts(), withAccounts()]);
    first = await importEdition({
      dir: FIXTURE_DIR, edition: 2025, store: bulk.app.store, pool: bulk.pool, directory: bulk.directory, ids: bulk.app.ids,
      onProgress: (p) => progress.push(p), onPhaseDone: (position) => { phasePositions.push(position); },
    });
    head = await bulk.app.store.headPosition();
    // The reference: the same export through the CommandService, one command at a time.
    const commands = new CommandService({
      store: oneByOne.app.store, ids: oneByOne.app.ids, now: () => new Date('2025-04-15T09:00:00Z'), directory: oneByOne.directory,
    });
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, commands, ids: oneByOne.app.ids });
  }, 300_000);

  afterAll(async () => {
    await bulk?.close();
    await oneByOne?.close();
  });

  test('appends exactly the events of the command-by-command import, in batches, each phase reported', async () => {
    const [mine, reference] = await Promise.all([allEvents(bulk.app.store), allEvents(oneByOne.app.store)]);
    // The rows' 16 701 events after the edition's two (EditionPlanned, EditionOpened of 2025).
    expect(mine.size).toBe(16_703);
    expect(first.events).toBe(16_701);
    expect(head).toBe(16_703);
    expect(mine.get(eventIdFor('import:2025:edition:plan', 0))).toMatchObject({ stream: 'edition-2025', type: 'EditionPlanned', globalPosition: 1 });
    expect(first.position).toBe(head);
    expect([...mine.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [id, event] of mine) expect(content(event), id).toEqual(content(reference.get(id)!));
    // Spot checks of the ids and metadata the command path derives.
    const team = mine.get(eventIdFor('import:2025:team:1', 0))!;
    expect(team).toMatchObject({ stream: 'team-1', type: 'TeamRegistered', metadata: { commandId: 'import:2025:team:1', correlationId: 'import:2025', causationId: null, imported: true, actor: { userId: null, role: 'SYSTEM' } } });
    expect(mine.get(eventIdFor('import:2025:participant:1:account', 0))).toMatchObject({ type: 'UserRegistered', data: { participantId: 1, approved: true, hasPassword: false } });
    expect(mine.get(eventIdFor('import:2025:participant-paid:1', 0))).toMatchObject({ stream: 'participant-1', revision: 1, type: 'ParticipantPaymentMarked' });
    expect(progress.filter((p) => p.done === p.total).map((p) => p.phase)).toEqual(['teams', 'participants', 'entries']);
    expect(progress.at(-1)).toEqual({ phase: 'entries', done: 13_626, total: 13_626 });
    expect(phasePositions).toHaveLength(3);
    expect(phasePositions[2]).toBe(head);
  });

  test('writes the same account-table rows', async () => {
    for (const sql of [
      'SELECT encode(email_key, \'hex\') AS k, user_id FROM app.email_index ORDER BY 1',
      'SELECT name_key, team_id FROM app.team_name_index ORDER BY 1',
      'SELECT code, team_id, created_at, expires_at, revoked_at FROM app.join_codes ORDER BY 1',
      'SELECT count(*) AS n FROM app.credentials',
    ]) {
      expect(await rows(bulk.pool, sql), sql).toEqual(await rows(oneByOne.pool, sql));
    }
    expect(await rows(bulk.pool, 'SELECT count(*)::int AS n FROM app.email_index')).toEqual([{ n: FIGURES_2025.participants }]);
  });

  test('projects to the published figures: 1005 participants, 121 teams, 196 445 km, 2 491 flowers', async () => {
    await bulk.app.project();
    expect(await bulk.app.totals()).toEqual(FIGURES_2025);
  });

  test('moves the id sequences past the imported ids', async () => {
    expect(await bulk.app.ids.next('team')).toBeGreaterThan(121);
    expect(await bulk.app.ids.next('participant')).toBeGreaterThan(1005);
    expect(await bulk.app.ids.next('entry')).toBeGreaterThan(13_626);
  });

  test('a second run appends nothing and trips over none of its own reservations', async () => {
    const again = await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: bulk.app.store, pool: bulk.pool, directory: bulk.directory, ids: bulk.app.ids });
    expect(again.events).toBe(0);
    expect(again.position).toBe(head);
    expect(await bulk.app.store.headPosition()).toBe(head);
    await bulk.app.project();
    expect(await bulk.app.totals()).toEqual(FIGURES_2025);
  }, 120_000);
});

describe('a synthetic edition imported in bulk', () => {
  let target: Awaited<ReturnType<typeof withAccounts>>;
  beforeAll(async () => {
    target = await withAccounts();
  });
  afterAll(async () => target?.close());

  test('appends the events its rows make and projects to the totals they add up to; a re-run appends nothing', async () => {
    const edition = syntheticEdition({ events: 20_000, seed: 7 });
    const options = { store: target.app.store, pool: target.pool, directory: target.directory, ids: target.app.ids, label: 'synthetic-test', batchEvents: 2000 };
    const result = await importRows(edition, options);
    expect(edition.expectedEvents).toBe(20_000);
    expect(result.events).toBe(20_000);
    expect(await target.app.store.headPosition()).toBe(20_000);

    const teamOf = new Map(edition.participants.map((p) => [p.id, p.team_id]));
    const hundredths = new Map(edition.teams.map((t) => [t.id, 0]));
    for (const entry of edition.entries) {
      const team = teamOf.get(entry.participant_id)!;
      hundredths.set(team, hundredths.get(team)! + Math.round(Number(entry.distance) * 100));
    }
    let distance = 0;
    let blueFlowers = 0;
    for (const total of hundredths.values()) {
      const figures = deriveTeamFigures(total, edition2025);
      distance += figures.distance;
      blueFlowers += figures.blueFlowers;
    }
    await target.app.project();
    expect(await target.app.totals()).toEqual({ teams: edition.teams.length, participants: edition.participants.length, distance, blueFlowers });

    const again = await importRows(edition, options);
    expect(again.events).toBe(0);
    expect(await target.app.store.headPosition()).toBe(20_000);
  }, 120_000);
});

describe('a refused row', () => {
  let target: Awaited<ReturnType<typeof withAccounts>>;
  beforeAll(async () => {
    target = await withAccounts();
  });
  afterAll(async () => target?.close());

  /** Rewrites line `index` (0 = the header) of a CSV with `change`. */
  function rewrite(dir: string, file: string, index: number, change: (line: string) => string): string {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines[index] = change(lines[index]!);
    writeFileSync(join(dir, file), lines.join('\n'));
    return lines[index]!;
  }

  const stored = async (commandId: string) => (await target.app.store.findEvent(eventIdFor(commandId, 0))) !== null;

  test('stops the import at the row a decider refuses, after the rows before it in its batch', async () => {
    const dir = smallEdition(3);
    // The 30th entry claims 5 000 km (over the 1 000 km an entry may carry).
    const line = rewrite(dir, 'entries.csv', 30, (l) => { const f = l.split(','); f[3] = '5000'; return f.join(','); });
    const id = line.split(',')[0]!;
    const previous = readFileSync(join(dir, 'entries.csv'), 'utf8').split('\n')[29]!.split(',')[0]!;
    const next = readFileSync(join(dir, 'entries.csv'), 'utf8').split('\n')[31]!.split(',')[0]!;
    const options = { dir, edition: 2025, store: target.app.store, pool: target.pool, directory: target.directory, ids: target.app.ids, batchEvents: 50 };
    await expect(importEdition(options)).rejects.toThrow(`import stopped at entry ${id}: INVALID_DISTANCE`);
    expect(await stored(`import:2025:entry:${previous}`)).toBe(true);
    expect(await stored(`import:2025:entry:${id}`)).toBe(false);
    expect(await stored(`import:2025:entry:${next}`)).toBe(false);
    // The same rows again: everything before the refusal is a repeat, and it stops at the same row.
    const head = await target.app.store.headPosition();
    await expect(importEdition(options)).rejects.toThrow(`import stopped at entry ${id}: INVALID_DISTANCE`);
    expect(await target.app.store.headPosition()).toBe(head);
  }, 60_000);

  test('stops the import at a participant whose e-mail another account holds, keeping the earlier ones of its batch', async () => {
    const dir = smallEdition(3);
    const participants = readFileSync(join(dir, 'participants.csv'), 'utf8').split('\n');
    const id = participants[12]!.split(',')[0]!;
    const previous = participants[11]!.split(',')[0]!;
    rewrite(dir, 'participants.csv', 12, (l) => l.replace(/participant\d+@example\.ee/, 'participant1@example.ee'));
    // Its own database: the teams of the other test's edition hold these names and codes.
    const fresh = await withAccounts();
    try {
      const options = { dir, edition: 2025, store: fresh.app.store, pool: fresh.pool, directory: fresh.directory, ids: fresh.app.ids, batchEvents: 1000 };
      await expect(importEdition(options)).rejects.toThrow(`import stopped at participant ${id}: EMAIL_ALREADY_IN_USE`);
      const found = async (commandId: string) => (await fresh.app.store.findEvent(eventIdFor(commandId, 0))) !== null;
      expect(await found(`import:2025:participant:${previous}`)).toBe(true);
      expect(await found(`import:2025:participant:${previous}:account`)).toBe(true);
      expect(await found(`import:2025:participant:${id}`)).toBe(false);
      expect(await found(`import:2025:participant:${id}:account`)).toBe(false);
      expect(await rows(fresh.pool, 'SELECT count(*)::int AS n FROM app.email_index')).toEqual([{ n: 11 }]);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
