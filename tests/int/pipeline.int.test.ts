/**
 * The spine on real-scale input: the 2025 export imported as events through the deciders, in
 * bulk (bulk-import.int.test.ts compares it with the command-by-command path),
 * projected by the projections, equals the published 2025 figures (spec §1); a second import
 * appends nothing; a replay rebuilds the same figures; a crash mid-projection loses and
 * doubles nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importEdition } from '@sinilill/cli';
import { catchUp, projections, rebuildReadModels, type Projection } from '@sinilill/read-models';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';

describe('the 2025 edition imported as events', () => {
  let app: TestApplication;
  let headAfterImport = 0;

  beforeAll(async () => {
    app = await testApplication();
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, ids: app.ids });
    headAfterImport = await app.store.headPosition();
  }, 300_000);
  afterAll(async () => app?.close());

  test('projects to the published figures: 1005 participants, 121 teams, 196 445 km, 2 491 flowers', async () => {
    await app.project();
    expect(await app.totals()).toEqual(FIGURES_2025);
  });

  test('every imported event is marked imported and attributed to the system', async () => {
    const events = await app.store.readAll({ after: 0, maxCount: 50 });
    expect(events.length).toBe(50);
    for (const event of events) {
      expect(event.metadata.imported).toBe(true);
      expect(event.metadata.actor).toEqual({ userId: null, role: 'SYSTEM' });
    }
  });

  test('a second import appends nothing', async () => {
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, ids: app.ids });
    expect(await app.store.headPosition()).toBe(headAfterImport);
  }, 300_000);

  test('a replay rebuilds every read model with the same figures', async () => {
    await app.project();
    const teamsBefore = await app.db.withSchema('rm').selectFrom('team_stats').selectAll().orderBy('team_id').execute();
    const membersBefore = await app.db.withSchema('rm').selectFrom('team_members').selectAll().orderBy('participant_id').execute();
    const entriesBefore = await app.db.withSchema('rm').selectFrom('team_entries').selectAll().orderBy('entry_id').execute();
    const codesBefore = await app.db.withSchema('rm').selectFrom('team_join_codes').selectAll().orderBy('team_id').execute();
    expect(codesBefore).toHaveLength(FIGURES_2025.teams);
    const result = await rebuildReadModels(app.db, app.store, projections);
    expect(result.position).toBe(headAfterImport);
    expect(await app.totals()).toEqual(FIGURES_2025);
    expect(await app.db.withSchema('rm').selectFrom('team_stats').selectAll().orderBy('team_id').execute()).toEqual(teamsBefore);
    expect(await app.db.withSchema('rm').selectFrom('team_members').selectAll().orderBy('participant_id').execute()).toEqual(membersBefore);
    expect(await app.db.withSchema('rm').selectFrom('team_entries').selectAll().orderBy('entry_id').execute()).toEqual(entriesBefore);
    expect(await app.db.withSchema('rm').selectFrom('team_join_codes').selectAll().orderBy('team_id').execute()).toEqual(codesBefore);
  }, 120_000);

  test('a projector that crashes mid-batch and starts again ends with the same figures', async () => {
    // Rebuild from scratch into a fresh live schema, crashing inside the third batch.
    await rebuildReadModels(app.db, app.store, []); // an empty rebuild: fresh tables, no events applied
    const [stats, directory] = projections as [Projection, Projection];
    let batches = 0;
    const crashing: Projection = {
      ...stats,
      async apply(db, events, context) {
        await stats.apply(db, events, context);
        if (++batches === 3) throw new Error('simulated crash after applying, before commit');
      },
    };
    await expect(catchUp(app.db, app.store, crashing, { batchSize: 1000 })).rejects.toThrow('simulated crash');
    await catchUp(app.db, app.store, stats, { batchSize: 1000 }); // the restarted worker
    await catchUp(app.db, app.store, stats, { batchSize: 1000 }); // a duplicate wake-up
    await catchUp(app.db, app.store, directory);
    expect(await app.totals()).toEqual(FIGURES_2025);
  }, 120_000);
});
