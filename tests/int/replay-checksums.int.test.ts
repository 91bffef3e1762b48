/**
 * before a replay swaps its rebuilt read models in, it compares every read-model
 * table of the rebuilt schema with the live one (count and an order-independent hash of the rows,
 * read-models checksums.ts). A replay of an unchanged log matches table for table; a row changed
 * by hand in the live tables makes exactly its table differ, and the swap repairs it; the
 * comparison is recorded in ReadModelsReplayed; the live tables answer throughout.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { importEdition } from '@sinilill/cli';
import { streams } from '@sinilill/domain';
import { projections, readModelTables, rebuildReadModels, replayAndRecord, type TableComparison } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { smallEdition } from '../support/small-edition';

describe('replay checksums', () => {
  let app: TestApplication;

  beforeAll(async () => {
    app = await testApplication();
    await importEdition({ dir: smallEdition(12), edition: 2025, commands: app.commands, ids: app.ids });
    await app.project();
  }, 300_000);
  afterAll(async () => app?.close());

  const mismatched = (checksums: readonly TableComparison[]) => checksums.filter((c) => !c.match).map((c) => c.table);

  test('a replay of an unchanged log matches every read-model table, rows counted', async () => {
    const tables = await readModelTables(app.db, 'rm');
    const result = await rebuildReadModels(app.db, app.store, projections);
    expect(result.checksums.map((c) => c.table)).toEqual(tables);
    expect(tables).toEqual(expect.arrayContaining(['team_stats', 'team_members', 'team_entries', 'admin_users', 'payment_info']));
    expect(mismatched(result.checksums)).toEqual([]);
    const members = result.checksums.find((c) => c.table === 'team_members')!;
    const count = await app.db.withSchema('rm').selectFrom('team_members').select((e) => e.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(members.rebuilt.rows).toBe(Number(count.n));
    expect(members.live).toEqual(members.rebuilt);
  }, 120_000);

  test('a corrupted live row makes its table, and only it, differ; the swap puts the log\'s value back', async () => {
    const member = await app.db.withSchema('rm').selectFrom('team_members').select(['participant_id', 'distance_hundredths'])
      .orderBy('participant_id').executeTakeFirstOrThrow();
    await sql`UPDATE rm.team_members SET distance_hundredths = distance_hundredths + 1 WHERE participant_id = ${member.participant_id}`.execute(app.db);
    let seenBeforeSwap: TableComparison[] = [];
    let liveDuringCompare = -1;
    const result = await rebuildReadModels(app.db, app.store, projections, {
      beforeSwap: async (checksums) => {
        seenBeforeSwap = [...checksums];
        const row = await app.db.withSchema('rm').selectFrom('team_members').select('distance_hundredths')
          .where('participant_id', '=', member.participant_id).executeTakeFirstOrThrow();
        liveDuringCompare = Number(row.distance_hundredths);
      },
    });
    expect(mismatched(result.checksums)).toEqual(['team_members']);
    expect(seenBeforeSwap).toEqual(result.checksums);
    const corrupted = result.checksums.find((c) => c.table === 'team_members')!;
    expect(corrupted.live!.rows).toBe(corrupted.rebuilt.rows);
    expect(corrupted.live!.checksum).not.toBe(corrupted.rebuilt.checksum);
    // Compared while the live tables were still the corrupted ones (the other connection sees the old schema).
    expect(liveDuringCompare).toBe(Number(member.distance_hundredths) + 1);
    const repaired = await app.db.withSchema('rm').selectFrom('team_members').select('distance_hundredths')
      .where('participant_id', '=', member.participant_id).executeTakeFirstOrThrow();
    expect(Number(repaired.distance_hundredths)).toBe(Number(member.distance_hundredths));
  }, 120_000);

  test('a deleted live row counts as a difference in rows', async () => {
    await sql`DELETE FROM rm.team_entries WHERE entry_id = (SELECT min(entry_id) FROM rm.team_entries)`.execute(app.db);
    const result = await rebuildReadModels(app.db, app.store, projections);
    const ledger = result.checksums.find((c) => c.table === 'team_entries')!;
    expect(ledger.match).toBe(false);
    expect(ledger.live!.rows).toBe(ledger.rebuilt.rows - 1);
    expect(mismatched(result.checksums)).toEqual(['team_entries']);
  }, 120_000);

  test('the live read models keep answering throughout a replay, with the same figures', async () => {
    const expected = await app.totals();
    let done = false;
    let reads = 0;
    const failures: unknown[] = [];
    const reader = (async () => {
      while (!done) {
        try {
          expect(await app.totals()).toEqual(expected);
          reads += 1;
        } catch (error) {
          failures.push(error);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await rebuildReadModels(app.db, app.store, projections, { batchSize: 200 });
    done = true;
    await reader;
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(5);
  }, 120_000);

  test('the replay records the comparison in ReadModelsReplayed', async () => {
    const record = await replayAndRecord(app.db, app.store, projections, { jobId: null });
    expect(record.checksums?.length).toBeGreaterThan(10);
    expect(record.checksums!.every((c) => c.match && c.live === c.rebuilt && c.liveRows === c.rows)).toBe(true);
    const events = await app.store.readStream(streams.operations(), { fromRevision: 0, maxCount: 1000 });
    const last = events.at(-1)!;
    expect(last.type).toBe('ReadModelsReplayed');
    expect((last.data as typeof record).checksums).toEqual(record.checksums);
  }, 120_000);
});
