/**
 * A log stored before editions were data replays to the same read models as the same log written
 * today. The log of today is made by the commands (EditionPlanned and EditionOpened for 2025,
 * teams and participants with `edition: 2025`, entries, an edit, a deletion, a
 * rename); the log as it was stored before is the same events without the edition events, and
 * with TeamRegistered and ParticipantRegistered at schema 1, without `edition` (the upcasters
 * lift them to 2025 on reading). Both are projected live and then replayed; every read-model
 * table the two share must hold the same rows, the public answers must be the same, and the read
 * side must say 2025 for both: the legacy log's catalogue is 2025 opened though rm.editions is empty.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CommandRequest } from '@sinilill/commands';
import type { EditionsAnswer, StatsAnswer } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import type { RecordedEvent } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { projections, readModelEditionCatalog, rebuildReadModels } from '@sinilill/read-models';
import { testApplication, type TestApplication } from '../support/app';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const NOW = new Date('2025-04-20T10:00:00Z');

let commandCount = 0;
const system = (at: string): CommandRequest => {
  const id = `legacy-log-${++commandCount}`;
  return { actor: SYSTEM, metadata: { commandId: id, correlationId: id, causationId: null }, now: new Date(at) };
};

/** Every read-model table both logs fill, with the columns that identify a row. */
const TABLES = {
  team_stats: 'team_id',
  team_daily_distance: 'team_id, day',
  stats_totals: 'id',
  team_members: 'participant_id',
  team_entries: 'entry_id',
  team_join_codes: 'team_id',
  payment_info: 'participant_id',
  fundraising_teams: 'team_id',
  fundraising_totals: 'id',
  admin_participants: 'participant_id',
  admin_teams: 'team_id',
} as const;

/** The events as they were stored before editions: no edition events, registrations at schema 1 without `edition`. */
function asBeforeEditions(events: readonly RecordedEvent[]): RecordedEvent[] {
  return events.filter((e) => !e.type.startsWith('Edition')).map((e) => {
    if (e.type !== 'TeamRegistered' && e.type !== 'ParticipantRegistered') return e;
    const { edition: _edition, ...data } = e.data as { edition: number };
    return { ...e, schemaVersion: 1, data };
  });
}

describe('a log from before editions', () => {
  let today: TestApplication;
  let legacy: TestApplication;
  const apis: FastifyInstance[] = [];

  const rows = async (app: TestApplication, table: keyof typeof TABLES) =>
    (await app.pool.query(`SELECT * FROM rm.${table} ORDER BY ${TABLES[table]}`)).rows as unknown[];
  const answer = async <T>(app: TestApplication, url: string): Promise<T> => {
    const api = buildQueryApi({ db: app.db, now: () => NOW, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined } });
    apis.push(api);
    const response = await api.inject({ url });
    expect(response.statusCode).toBe(200);
    return response.json<T>();
  };

  beforeAll(async () => {
    today = await testApplication({ now: () => NOW });
    legacy = await testApplication({ now: () => NOW });
    const c = today.commands;
    await c.planEdition(edition2025, system('2025-01-10T08:00:00Z'));
    await c.openEdition(2025, system('2025-01-10T08:01:00Z'));
    const person = { email: 'x@example.ee', birthYear: 1980, gender: 'FEMALE' as const, newsletter: false };
    await c.registerTeam({ teamId: 1, teamName: 'Tartu Tammed', description: 'Tammed', joinCode: 'AAAA1111', icon: null }, system('2025-03-01T08:00:00Z'));
    await c.registerTeam({ teamId: 2, teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'BBBB2222', icon: null }, system('2025-03-02T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 11, teamId: 1, fullName: 'Mari Maasikas', email: 'mari@example.ee', isCaptain: true }, system('2025-03-01T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 12, teamId: 1, fullName: 'Kati Karu', email: 'kati@example.ee', birthYear: 2014, isCaptain: false }, system('2025-03-03T08:00:00Z'));
    await c.registerParticipant({ ...person, participantId: 21, teamId: 2, fullName: 'Jüri Juurikas', email: 'jyri@example.ee', isCaptain: true }, system('2025-03-02T08:00:00Z'));
    const first = await c.addEntry({ participantId: 11, distance: 12.34, entryType: 'WALK', performedAt: '2025-04-10' }, system('2025-04-10T18:00:00Z'));
    await c.addEntry({ participantId: 12, distance: 30.5, entryType: 'WALK', performedAt: '2025-04-11' }, system('2025-04-11T18:00:00Z'));
    const gone = await c.addEntry({ participantId: 21, distance: 8, entryType: 'WALK', performedAt: '2025-04-12' }, system('2025-04-12T18:00:00Z'));
    await c.addEntry({ participantId: 21, distance: 250.25, entryType: 'CYCLING', performedAt: '2025-04-13' }, system('2025-04-13T18:00:00Z'));
    await c.editEntry(first.entry.id, { participantId: 11, distance: 14.1, entryType: 'WALK', performedAt: '2025-04-10' }, system('2025-04-14T18:00:00Z'));
    await c.deleteEntries([gone.entry.id], system('2025-04-15T18:00:00Z'));
    await c.renameParticipant(12, 'Kati Karusoo', system('2025-04-17T08:00:00Z'));
    const events = await today.store.readAll({ after: 0, maxCount: 10_000 });
    for (const event of asBeforeEditions(events)) {
      const { id, type, schemaVersion, data, metadata } = event;
      await legacy.store.appendToStreams([{ stream: event.stream, expectedRevision: 'any', events: [{ id, type, schemaVersion, data, metadata }] }]);
    }
    await today.project();
    await legacy.project();
  }, 120_000);

  afterAll(async () => {
    for (const api of apis) await api.close();
    await today?.close();
    await legacy?.close();
  });

  test('the legacy log is what was stored before: registrations at schema 1 without an edition, no edition events', async () => {
    const stored = (await legacy.pool.query(`SELECT type, schema_version, data ? 'edition' AS has_edition FROM es.events
      WHERE type IN ('TeamRegistered', 'ParticipantRegistered') OR type LIKE 'Edition%' ORDER BY global_position`)).rows;
    expect(stored).toHaveLength(5);
    for (const row of stored) expect(row).toMatchObject({ schema_version: 1, has_edition: false });
    // And the upcasters read them as 2025's.
    const read = await legacy.store.readStream('team-1');
    expect(read[0]).toMatchObject({ type: 'TeamRegistered', data: { edition: 2025 } });
  });

  test('projected live, every read model equals the one of the log written today', async () => {
    for (const table of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
      expect({ table, rows: await rows(legacy, table) }).toEqual({ table, rows: await rows(today, table) });
    }
    expect(await today.totals()).toEqual({ teams: 2, participants: 3, distance: Math.round(14.1) + Math.round(30.5) + Math.round(250.25), blueFlowers: expect.any(Number) });
  });

  test('the read models say 2025: every team and member, and the catalogue of either log', async () => {
    for (const app of [today, legacy]) {
      expect((await app.pool.query('SELECT DISTINCT edition FROM rm.team_stats')).rows).toEqual([{ edition: 2025 }]);
      expect((await app.pool.query('SELECT DISTINCT edition FROM rm.team_members')).rows).toEqual([{ edition: 2025 }]);
      const catalog = await readModelEditionCatalog(app.db.withSchema('rm'));
      expect(catalog.list().map((r) => [r.edition.year, r.status])).toEqual([[2025, 'opened']]);
      expect(catalog.current(NOW.toISOString())?.edition.route).toEqual(edition2025.route);
    }
    expect((await legacy.pool.query('SELECT count(*)::int AS n FROM rm.editions')).rows).toEqual([{ n: 0 }]);
  });

  test('the public answers are the same, for 2025', async () => {
    const stats = await answer<StatsAnswer>(today, '/api/stats');
    expect(await answer<StatsAnswer>(legacy, '/api/stats')).toEqual(stats);
    expect(stats.teams).toHaveLength(2);
    const editions = await answer<EditionsAnswer>(legacy, '/api/editions');
    expect(editions.current).toMatchObject({ year: 2025, status: 'opened', phase: 'running' });
  });

  test('replayed, both give the same read models again', async () => {
    await rebuildReadModels(today.db, today.store, projections);
    await rebuildReadModels(legacy.db, legacy.store, projections);
    for (const table of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
      expect({ table, rows: await rows(legacy, table) }).toEqual({ table, rows: await rows(today, table) });
    }
    expect((await legacy.pool.query('SELECT DISTINCT edition FROM rm.team_stats')).rows).toEqual([{ edition: 2025 }]);
  }, 120_000);
});
