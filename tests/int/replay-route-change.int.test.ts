/**
 * docs/decisions/0009 + docs/decisions/0017 + 0079: the route is data, in the log. Lengthening one mission changes exactly the flowers
 * the rules predict. A slice of the 2025 export is imported and projected with the 2025 route;
 * then an EditionChanged gives 2025 a route whose mission N is X km longer (every later
 * mission shifted by X, the lap X longer): projected live it recomputes every 2025 team, and a
 * rebuild gives the same rows. Every team's flowers must then equal the domain's
 * blueFlowers for the new route, and — for the teams inside the first lap — differ from before
 * exactly when the team's distance lies in [old end, old end + X) of mission N or a later one:
 * the flower it had collected there now lies ahead of it. That set is computed here from the old
 * route alone, not with the domain's functions.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importEdition, replay } from '@sinilill/cli';
import { SCHEMA_VERSIONS, blueFlowers, buildEdition, inLapDistance, streams, type Edition, type Route } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { projections, rebuildReadModels } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';
import { smallEdition } from '../support/small-edition';

/** Mission N (1-based) of the 2025 route is lengthened by X km. */
const N = 5;
const X = 30;

/** The 2025 edition with mission N longer by `extra` km: later missions and the lap end shift. */
function lengthened(edition: Edition, n: number, extra: number): Edition {
  const route: Route = {
    lapLength: edition.route.lapLength + extra,
    missions: edition.route.missions.map((m, i) => {
      if (i < n - 1) return { ...m };
      if (i === n - 1) return { ...m, end: m.end + extra, distance: m.distance + extra };
      return { ...m, start: m.start + extra, end: m.end + extra };
    }),
  };
  const { route: _old, ...data } = edition;
  return buildEdition(data, route);
}

/**
 * Gives the 2025 edition `edition`'s data in the log: an EditionChanged when the log has 2025
 * planned already, else an EditionPlanned (a log from before editions).
 */
async function setEdition2025(app: TestApplication, edition: Edition): Promise<void> {
  const stream = streams.edition(2025);
  const planned = (await app.store.readStream(stream)).length > 0;
  const event = planned
    ? { type: 'EditionChanged' as const, data: { year: 2025, edition, changedAt: '2025-06-01T00:00:00.000Z' } }
    : { type: 'EditionPlanned' as const, data: { year: 2025, edition, plannedAt: '2025-06-01T00:00:00.000Z' } };
  await app.store.appendToStreams([{
    stream, expectedRevision: 'any',
    events: [{
      id: randomUUID(), type: event.type, schemaVersion: SCHEMA_VERSIONS[event.type], data: event.data,
      metadata: { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'route-change', causationId: null },
    }],
  }]);
}

interface TeamRow { team_id: number; distance_hundredths: number; blue_flowers: number; in_lap_distance: number }

describe('replaying with a lengthened mission', () => {
  let app: TestApplication;
  let before: Map<number, TeamRow>;
  let after: Map<number, TeamRow>;
  let live: Map<number, TeamRow>;
  const modified = lengthened(edition2025, N, X);

  const teams = async () => new Map((await app.db.withSchema('rm').selectFrom('team_stats')
    .select(['team_id', 'distance_hundredths', 'blue_flowers', 'in_lap_distance']).execute())
    .map((r) => [r.team_id, r as TeamRow]));

  beforeAll(async () => {
    app = await testApplication();
    await importEdition({ dir: smallEdition(40), edition: 2025, commands: app.commands, ids: app.ids });
    await app.project();
    before = await teams();
    await setEdition2025(app, modified);
    await app.project();
    live = await teams();
    await rebuildReadModels(app.db, app.store, projections);
    after = await teams();
  }, 300_000);
  afterAll(async () => app?.close());

  test('the lengthened route is what the test thinks it is', () => {
    const oldMission = edition2025.route.missions[N - 1]!;
    expect(modified.route.missions[N - 1]!.end).toBe(oldMission.end + X);
    expect(modified.route.lapLength).toBe(edition2025.route.lapLength + X);
    expect(before.size).toBe(40);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  });

  test('projected live, the EditionChanged recomputes every team of the edition as the rebuild does', () => {
    expect(live).toEqual(after);
  });

  test("every team's flowers and in-lap distance follow the domain's rules for the new route", () => {
    for (const row of after.values()) {
      const km = row.distance_hundredths / 100;
      expect({ team: row.team_id, flowers: row.blue_flowers }).toEqual({ team: row.team_id, flowers: blueFlowers(km, modified) });
      expect(Number(row.in_lap_distance)).toBeCloseTo(inLapDistance(km, modified.route), 2);
    }
  });

  test('inside the first lap, exactly the teams between an old and a new mission end lost one flower each', () => {
    const lap = edition2025.route.lapLength * 100;
    // Ends in hundredths of mission N and every later one, from the OLD route only.
    const shiftedEnds = edition2025.route.missions.slice(N - 1).map((m) => Math.round(m.end * 100));
    const expected = new Map<number, number>();
    const changed = new Map<number, number>();
    for (const [id, old] of before) {
      const d = old.distance_hundredths;
      if (d >= lap) continue; // a longer lap also changes prestige: covered by the previous test
      const lost = shiftedEnds.filter((end) => end <= d && d < end + X * 100).length;
      if (lost > 0) expected.set(id, lost);
      const now = after.get(id)!.blue_flowers;
      if (now !== old.blue_flowers) changed.set(id, old.blue_flowers - now);
    }
    expect(changed).toEqual(expected);
    // The slice must exercise both sides of the rule, or the test proves nothing.
    expect(expected.size).toBeGreaterThan(0);
    expect([...before.values()].filter((t) => t.distance_hundredths < lap).length).toBeGreaterThan(expected.size);
  });

  test('changing the edition back to the real route and replaying restores the 2025 flowers', async () => {
    await setEdition2025(app, edition2025);
    await rebuildReadModels(app.db, app.store, projections);
    const restored = await teams();
    for (const [id, row] of before) expect(restored.get(id)!.blue_flowers).toBe(row.blue_flowers);
  }, 120_000);

  test("the CLI's replay records ReadModelsReplayed with jobId null and the totals before and after", async () => {
    const totals = await app.totals();
    const head = await app.store.headPosition();
    const { before: figuresBefore, after: figuresAfter } = await replay(app.db, app.store);
    expect([figuresBefore, figuresAfter]).toEqual([totals, totals]);
    const recorded = await app.store.readStream(streams.operations());
    expect(recorded.map((e) => e.type)).toEqual(['ReadModelsReplayed']);
    expect(recorded[0]!.data).toMatchObject({ jobId: null, position: head, events: head, before: totals, after: totals });
    expect(recorded[0]!.metadata.actor).toEqual({ userId: null, role: 'SYSTEM' });
  }, 120_000);
});
