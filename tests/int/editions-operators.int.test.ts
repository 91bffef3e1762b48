/**
 * The operators' tools know editions, on real PostgreSQL:
 * - `npm run import` of the 2025 export writes EditionPlanned and EditionOpened of 2025 (SYSTEM,
 *   before its registration opens, the seed edition's data) before the teams and participants,
 *   which carry edition 2025; a second run appends nothing;
 * - the launcher's demo closes 2025 (after its late-entry deadline) and plans and opens the seed
 *   edition of 2026: 2025 archived, 2026 announced in February 2026 and current in April; a closed
 *   edition takes no import;
 * - the replay of the CLI rebuilds the editions' read model;
 * - copy-log and backup/restore carry the `edition-*` streams event for event;
 * - an export of another year with its own edition.json is imported into that year; an invalid
 *   edition.json is refused with the domain's code and field before anything is written; an
 *   edition with teams of its own takes no import; `npm run import` says the code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import {
  backupDatabase, copyLog, copySubjectKeys, demoNextEdition, importEdition, ImportRefused, migrateToLatest, replay, restoreBackup,
} from '@sinilill/cli';
import { AccountDirectory, CommandService, readEditionCatalog } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS, streams, type Edition } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { FIGURES_2025, FIXTURE_DIR, testApplication, type TestApplication } from '../support/app';
import { smallEdition } from '../support/small-edition';

const INDEX_SECRET = 'editions-operators-index-secret-0123';
const SYSTEM = { userId: null, role: 'SYSTEM', participantId: null, teamId: null } as const;

/** The events of the `edition-{year}` stream: type and data. */
async function editionStream(store: EventStore, year: number): Promise<RecordedEvent[]> {
  return store.readStream(streams.edition(year));
}

/** An event without where and when it was stored. */
function content(event: RecordedEvent) {
  return { id: event.id, stream: event.stream, revision: event.revision, type: event.type, schemaVersion: event.schemaVersion, data: event.data };
}

/** The protected store of a database (keys in the same database). */
function storeOn(pool: pg.Pool): EventStore {
  return withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
}

/** The editions of a log as the command side's catalogue has them: year and status, oldest first. */
async function catalogue(store: EventStore): Promise<{ year: number; status: string }[]> {
  return (await readEditionCatalog(store)).list().map((r) => ({ year: r.edition.year, status: r.status }));
}

describe('the 2025 export imported, then the launcher\'s demo', () => {
  let app: TestApplication;
  let accountPool: pg.Pool;
  let directory: AccountDirectory;
  let commands: CommandService;
  const others: pg.Pool[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2026-02-15T10:00:00Z') });
    accountPool = new pg.Pool({ connectionString: app.url, max: 4 });
    directory = new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET });
    commands = new CommandService({ store: app.store, ids: app.ids, now: () => new Date('2026-02-15T10:00:00Z') });
    await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids });
  });

  afterAll(async () => {
    for (const pool of others) await pool.end();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await accountPool?.end();
    await app?.close();
  });

  test('plans and opens 2025 with the seed data, as SYSTEM, before its registration opened and before any team', async () => {
    const events = await editionStream(app.store, 2025);
    expect(events.map((e) => e.type)).toEqual(['EditionPlanned', 'EditionOpened']);
    expect(JSON.parse(JSON.stringify((events[0]!.data as { edition: Edition }).edition))).toEqual(JSON.parse(JSON.stringify(edition2025)));
    for (const event of events) {
      expect(event.metadata).toMatchObject({ actor: { role: 'SYSTEM' }, commandId: expect.stringMatching(/^import:2025:edition:/), imported: true });
    }
    const planned = (events[0]!.data as { plannedAt: string }).plannedAt;
    expect(planned < `${edition2025.registrationOpens}T00:00:00+02:00`).toBe(true);
    const [firstTeam] = await app.store.readEvents({ category: 'team', types: ['TeamRegistered'] }, { maxCount: 1 });
    expect(events[1]!.globalPosition).toBeLessThan(firstTeam!.globalPosition);
  });

  test('records every team and participant in the edition of 2025', async () => {
    const teams = await app.store.readEvents({ category: 'team', types: ['TeamRegistered'] });
    const participants = await app.store.readEvents({ category: 'participant', types: ['ParticipantRegistered'] });
    expect(teams).toHaveLength(FIGURES_2025.teams);
    expect(participants).toHaveLength(FIGURES_2025.participants);
    expect(new Set(teams.map((e) => (e.data as { edition: number }).edition))).toEqual(new Set([2025]));
    expect(new Set(participants.map((e) => (e.data as { edition: number }).edition))).toEqual(new Set([2025]));
    expect(await catalogue(app.store)).toEqual([{ year: 2025, status: 'opened' }]);
  });

  test('a second run appends nothing, the edition events included', async () => {
    const head = await app.store.headPosition();
    const again = await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids });
    expect(again.events).toBe(0);
    expect(again.edition).toBe(2025);
    expect(await app.store.headPosition()).toBe(head);
  });

  test('the demo closes 2025 after its late-entry deadline and plans and opens 2026 with the seed data; a second run appends nothing', async () => {
    const result = await demoNextEdition({ store: app.store, commands }, 2026);
    expect(result).toEqual({ closed: [2025], opened: 2026 });
    const closed = await editionStream(app.store, 2025);
    expect(closed.map((e) => e.type)).toEqual(['EditionPlanned', 'EditionOpened', 'EditionClosed']);
    expect((closed[2]!.data as { closedAt: string }).closedAt > `${edition2025.lateEntriesUntil}T23:59:59+03:00`).toBe(true);
    expect(closed[2]!.metadata).not.toHaveProperty('imported');
    const next = await editionStream(app.store, 2026);
    expect(next.map((e) => e.type)).toEqual(['EditionPlanned', 'EditionOpened']);
    expect(next[0]!.metadata).toMatchObject({ actor: { role: 'SYSTEM' }, commandId: 'demo:2026:edition:plan' });
    expect(next[0]!.metadata).not.toHaveProperty('imported');
    expect(JSON.parse(JSON.stringify((next[0]!.data as { edition: Edition }).edition))).toEqual(JSON.parse(JSON.stringify(edition2026Demo)));

    const catalog = await readEditionCatalog(app.store);
    expect(catalog.archived().map((r) => r.edition.year)).toEqual([2025]);
    // February 2026 (the launcher's default clock): 2026 announced, its registration not open yet.
    expect(catalog.next('2026-02-15T10:00:00Z')?.edition.year).toBe(2026);
    expect(catalog.current('2026-04-10T10:00:00Z')?.edition.year).toBe(2026);

    const head = await app.store.headPosition();
    expect(await demoNextEdition({ store: app.store, commands }, 2026)).toEqual({ closed: [], opened: 2026 });
    expect(await app.store.headPosition()).toBe(head);
  });

  test('a closed edition takes no import: EDITION_CLOSED, nothing written', async () => {
    const head = await app.store.headPosition();
    const refused = await importEdition({ dir: FIXTURE_DIR, edition: 2025, store: app.store, pool: accountPool, directory, ids: app.ids })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportRefused);
    expect(refused).toMatchObject({ code: 'EDITION_CLOSED' });
    expect(await app.store.headPosition()).toBe(head);
  });

  test("the CLI's replay rebuilds the editions' read model: 2025 closed, 2026 opened", async () => {
    await app.project();
    await replay(app.db, app.store);
    const { rows } = await app.pool.query<{ year: number; status: string }>('SELECT year, status FROM rm.editions ORDER BY year');
    expect(rows).toEqual([{ year: 2025, status: 'closed' }, { year: 2026, status: 'opened' }]);
  });

  test('copy-log carries the edition streams event for event, and the copy has the same editions', async () => {
    const url = await createScratchDatabase(inject('databaseServerUrl'), 'editions-copy');
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    others.push(pool);
    await migrateToLatest(pool);
    await copySubjectKeys(app.pool, pool);
    const copied = await copyLog({ source: app.store, target: storeOn(pool) });
    expect(copied.match).toBe(true);
    for (const year of [2025, 2026]) {
      const original = (await editionStream(app.store, year)).map(content);
      expect(original.length).toBeGreaterThan(0);
      expect((await editionStream(storeOn(pool), year)).map(content)).toEqual(original);
    }
    expect(await catalogue(storeOn(pool))).toEqual([{ year: 2025, status: 'closed' }, { year: 2026, status: 'opened' }]);
  });

  test('a backup restored into an empty database has the edition streams event for event', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sinilill-editions-backup-'));
    folders.push(folder);
    const file = join(folder, 'sinilill.dump');
    await backupDatabase({ databaseUrl: app.url, file, emailIndexSecret: INDEX_SECRET });
    const url = await createScratchDatabase(inject('databaseServerUrl'), 'editions-restored');
    await restoreBackup({ databaseUrl: url, file, emailIndexSecret: INDEX_SECRET, log: () => undefined });
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    others.push(pool);
    for (const year of [2025, 2026]) {
      expect((await editionStream(storeOn(pool), year)).map(content)).toEqual((await editionStream(app.store, year)).map(content));
    }
    expect(await catalogue(storeOn(pool))).toEqual([{ year: 2025, status: 'closed' }, { year: 2026, status: 'opened' }]);
  });
});

/** The 2025 edition moved a year back, as an organiser's edition.json of 2024 would have it. */
function edition2024(): Record<string, unknown> {
  const back = (date: string) => date.replace(/^2025/, '2024');
  const data = JSON.parse(JSON.stringify(edition2025)) as Record<string, unknown> & Edition;
  return {
    ...data, year: 2024, name: { et: 'Sinilill 2024', en: 'Sinilill 2024' },
    registrationOpens: back(data.registrationOpens), startDate: back(data.startDate), endDate: back(data.endDate),
    lateEntriesUntil: back(data.lateEntriesUntil), prizeDraw: back(data.prizeDraw),
  };
}

/** A slice of the 2025 export moved to 2024 (every date a year back), with `edition` as its edition.json (none: undefined). */
function export2024(edition: unknown): string {
  const dir = smallEdition(6);
  for (const file of ['teams.csv', 'participants.csv', 'entries.csv']) {
    writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace(/2025-(\d\d-\d\d)/g, '2024-$1'));
  }
  if (edition !== undefined) writeFileSync(join(dir, 'edition.json'), JSON.stringify(edition));
  return dir;
}

describe('an export of another year with its own edition.json', () => {
  let app: TestApplication;
  const folders: string[] = [];
  const exportDir = (edition: unknown) => {
    const dir = export2024(edition);
    folders.push(dir);
    return dir;
  };

  beforeAll(async () => {
    app = await testApplication({ now: () => new Date('2024-04-15T09:00:00Z') });
  });

  afterAll(async () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await app?.close();
  });

  test.each([
    ['a mission without its English name', (e: Record<string, unknown>) => {
      (e.route as { missions: { name: Record<string, string> }[] }).missions[3]!.name.en = '';
    }, 'EDITION_MISSION_NAME_MISSING', 'route.missions[3].name.en'],
    ['a negative fee', (e: Record<string, unknown>) => {
      (e.fees as Record<string, number>).adultCents = -100;
    }, 'EDITION_FEE_INVALID', 'fees.adultCents'],
    ['an end before the start', (e: Record<string, unknown>) => {
      e.endDate = '2024-03-01';
    }, 'EDITION_DATES_INVALID', undefined],
  ])('refuses an edition.json with %s by its code and field, before writing anything', async (_, spoil, code, field) => {
    const data = edition2024();
    spoil(data);
    const refused = await importEdition({ dir: exportDir(data), edition: 2024, store: app.store, ids: app.ids }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportRefused);
    expect(refused).toMatchObject({ code, ...(field ? { field } : {}) });
    expect((refused as Error).message).toContain(code);
    expect(await app.store.headPosition()).toBe(0);
  });

  test('refuses an edition.json of another year than the one asked for, and a year with neither edition.json nor seed data', async () => {
    await expect(importEdition({ dir: exportDir(edition2024()), edition: 2023, store: app.store, ids: app.ids }))
      .rejects.toMatchObject({ code: 'IMPORT_YEAR_MISMATCH' });
    await expect(importEdition({ dir: exportDir(undefined), edition: 2024, store: app.store, ids: app.ids }))
      .rejects.toMatchObject({ code: 'IMPORT_EDITION_UNKNOWN' });
    expect(await app.store.headPosition()).toBe(0);
  });

  test('imports the export into 2024 with its edition.json: the edition planned and opened, every team and participant of 2024', async () => {
    const dir = exportDir(edition2024());
    const result = await importEdition({ dir, edition: 2024, store: app.store, ids: app.ids });
    expect(result.edition).toBe(2024);
    expect(result.teams).toBe(6);
    const events = await editionStream(app.store, 2024);
    expect(events.map((e) => e.type)).toEqual(['EditionPlanned', 'EditionOpened']);
    expect((events[0]!.data as { edition: Edition }).edition.name).toEqual({ et: 'Sinilill 2024', en: 'Sinilill 2024' });
    const teams = await app.store.readEvents({ category: 'team', types: ['TeamRegistered'] });
    expect(teams).toHaveLength(6);
    expect(teams.every((e) => (e.data as { edition: number }).edition === 2024)).toBe(true);
    const participants = await app.store.readEvents({ category: 'participant', types: ['ParticipantRegistered'] });
    expect(participants.length).toBe(result.participants);
    expect(participants.every((e) => (e.data as { edition: number }).edition === 2024)).toBe(true);
    expect(await catalogue(app.store)).toEqual([{ year: 2024, status: 'opened' }]);
    // A repeat of the same import continues (appends nothing) rather than being refused.
    expect((await importEdition({ dir, edition: 2024, store: app.store, ids: app.ids })).events).toBe(0);
  });

  test('refuses an import into an edition that has teams of its own: IMPORT_EDITION_HAS_TEAMS, nothing written', async () => {
    await app.commands.registerTeam(
      { teamId: 9001, teamName: 'Kohapeal registreeritud', description: '', joinCode: 'KOHAPEAL1', icon: null },
      { actor: SYSTEM, metadata: { commandId: 'site:team:9001', correlationId: 'site', causationId: null }, now: new Date('2024-03-10T10:00:00Z') },
    );
    const head = await app.store.headPosition();
    const refused = await importEdition({ dir: exportDir(edition2024()), edition: 2024, store: app.store, ids: app.ids }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'IMPORT_EDITION_HAS_TEAMS' });
    expect((refused as Error).message).toContain('1 team(s) registered already, not by an import');
    expect(await app.store.headPosition()).toBe(head);
  });

  test('`npm run import` says the code and the field of an invalid edition.json and exits 1', async () => {
    const data = edition2024();
    (data.fees as Record<string, number>).childCents = -1;
    const dir = exportDir(data);
    const dataDir = mkdtempSync(join(tmpdir(), 'sinilill-import-cli-'));
    folders.push(dataDir);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/cli/src/main.ts'), 'import', '--dir', dir], {
      cwd: repoRoot, encoding: 'utf8', timeout: 120_000,
      env: {
        ...process.env, DATABASE_URL: app.url, REDIS_URL: inject('redisUrl'), BULLMQ_PREFIX: 'editions-operators', DATA_DIR: dataDir,
        JWT_SECRET: '', EMAIL_INDEX_SECRET: INDEX_SECRET,
      },
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain('import refused: EDITION_FEE_INVALID (fees.childCents)');
  });
});
