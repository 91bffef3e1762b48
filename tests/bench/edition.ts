/**
 * The 2025 edition: its import and the replay of its log, and the import of a synthetic edition
 *.
 *
 * - Import. Unit: events/s and seconds. The 2025 export (infra/seed/edition-2025: teams,
 *   participants with their accounts and payments, entries) imported in bulk by the CLI's
 *   `importEdition` with `store`, `pool` and `directory` (as `npm run import` does: BulkImporter,
 *   account-table rows and an account per participant; the AccountDirectory on the same database
 *   with a pool of its own, as services/cli/src/application.ts builds it) into a fresh, migrated
 *   database; events = the log's head position after the import minus before it (the database is
 *   fresh, so: the head), over the import's own wall time. Target: ≥ 20 000 events/s.
 *   No peer.
 * - Replay. Unit: events/s. Every read model rebuilt from the whole log into fresh tables and
 *   swapped in (`rebuildReadModels` with all projections, as `npm run replay` does), the best of
 *   3 runs; events = the log's events read. Target: ≥ 20 000 events/s. No peer.
 * - Synthetic import. Unit: seconds and events/s. A synthetic edition (services/cli's
 *   `syntheticEdition`, seed 1, with accounts) of BENCH_SYNTHETIC_EVENTS events (default
 *   1 000 000; 0 skips the row) imported by `importRows` through the same bulk path, as
 *   `npm run import -- --synthetic <events>` does, into a scratch database of its own (created,
 *   migrated, and dropped afterwards); events = the log's head after the import, over the
 *   import's own wall time (the lazily made entry rows included). Target: a
 *   million events in < 60 s. No peer.
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { AccountDirectory, PostgresIdAllocator, type BulkTimings, type IdAllocator } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { importEdition, importRows, migrateToLatest, syntheticEdition, type ImportResult } from '@sinilill/cli';
import { projections, rebuildReadModels, type ReadModelDatabase } from '@sinilill/read-models';
import { grouped, progress, times, verdict, type Row } from './report';

/** The floor for the import and for the replay, events/s. */
export const EDITION_TARGET_EVENTS_PER_SECOND = 20_000;

/** The ceiling for a synthetic edition of a million events, seconds. */
export const SYNTHETIC_TARGET_SECONDS = 60;

/** The e-mail index's secret in the bench's account tables (the same as http-peers.ts's). */
const INDEX_SECRET = 'bench-index-secret-0123456789';

export interface ImportFigures {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Where the bulk path's time went (BulkImporter's timings; load and decide overlap the appends). */
  timings?: BulkTimings;
}

/**
 * Runs `work` with an AccountDirectory on the database of `databaseUrl`, with a pool of its own
 * (as services/cli/src/application.ts builds it), and ends that pool afterwards.
 */
async function withDirectory<T>(databaseUrl: string, work: (directory: AccountDirectory) => Promise<T>): Promise<T> {
  const accountPool = new pg.Pool({ connectionString: databaseUrl, max: 6 });
  try {
    return await work(new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET }));
  } finally {
    await accountPool.end();
  }
}

/** The figures of an import: events = the head's rise, over the import's own wall time. */
function figuresOf(events: number, imported: ImportResult): ImportFigures {
  const seconds = imported.milliseconds / 1000;
  return { events, seconds, eventsPerSecond: events / seconds, ...(imported.timings ? { timings: imported.timings } : {}) };
}

/**
 * Imports the 2025 export in bulk with the account tables (see the module's comment) into the
 * database of `pool` (`databaseUrl` names it, for the directory's own pool); the events it
 * appended per second of its run.
 * @throws Error "import stopped at <row>: <message>" when a row is refused; pg errors.
 */
export async function measureImport(options: { store: EventStore; ids: IdAllocator; pool: pg.Pool; databaseUrl: string }): Promise<ImportFigures> {
  progress('importing the 2025 export in bulk (with accounts)');
  const { store, ids, pool } = options;
  const before = await store.headPosition();
  const imported = await withDirectory(options.databaseUrl, (directory) =>
    importEdition({ dir: join(repoRoot, 'infra/seed/edition-2025'), edition: 2025, store, pool, directory, ids }));
  return figuresOf((await store.headPosition()) - before, imported);
}

/**
 * The synthetic edition's size from BENCH_SYNTHETIC_EVENTS: default 1 000 000, 0 to skip the row.
 * @throws Error when it is set to anything but a non-negative integer (`_` separators allowed).
 */
export function syntheticEventsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_SYNTHETIC_EVENTS?.trim();
  if (raw === undefined || raw === '') return 1_000_000;
  const events = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(events) || events < 0) throw new Error(`BENCH_SYNTHETIC_EVENTS must be a non-negative integer, not ${raw}`);
  return events;
}

/**
 * Imports a synthetic edition of about `events` events in bulk with the account tables into a
 * scratch database of its own on the server of `serverUrl` (migrated first, dropped afterwards);
 * its seconds and events/s.
 * @throws Error "import stopped at <row>: <message>" when a row is refused; pg errors.
 */
export async function measureSyntheticImport<T = undefined>(options: {
  serverUrl: string;
  events: number;
  /** Runs on the imported database before it is dropped (the replay at scale, the admin tables). */
  afterwards?: (databaseUrl: string) => Promise<T>;
}): Promise<ImportFigures & { afterwards?: T }> {
  const url = await createScratchDatabase(options.serverUrl, 'bench_synthetic');
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  let figures: ImportFigures;
  try {
    await migrateToLatest(pool);
    const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
    const rows = syntheticEdition({ events: options.events, seed: 1, accounts: true });
    progress(`importing a synthetic edition of ~${grouped(rows.expectedEvents)} events in bulk (with accounts), on its own database`);
    const before = await store.headPosition();
    const imported = await withDirectory(url, (directory) =>
      importRows(rows, { store, pool, directory, ids: new PostgresIdAllocator(pool), label: `synthetic-${options.events}-s1` }));
    figures = figuresOf((await store.headPosition()) - before, imported);
  } catch (error) {
    await pool.end();
    await dropDatabase(options.serverUrl, url);
    throw error;
  }
  await pool.end();
  try {
    return options.afterwards ? { ...figures, afterwards: await options.afterwards(url) } : figures;
  } finally {
    await dropDatabase(options.serverUrl, url);
  }
}

/** Drops the scratch database of `url` (a million events' worth of disk); a failure is only reported. */
async function dropDatabase(serverUrl: string, url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
  } catch (error) {
    progress(`could not drop ${name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

export interface ReplayFigures {
  events: number;
  /** events/s of each run. */
  runs: number[];
  best: number;
}

/** Rebuilds every read model from the log `runs` times; events/s of each and the best. */
export async function measureReplay(db: Kysely<ReadModelDatabase>, store: EventStore, runs = 3): Promise<ReplayFigures> {
  const rates: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    progress(`replay ${i + 1}/${runs}: every projection from the whole log`);
    const result = await rebuildReadModels(db, store, projections);
    events = result.events;
    rates.push(result.events / (result.milliseconds / 1000));
  }
  return { events, runs: rates, best: Math.max(...rates) };
}

/**
 * After a result's headline: where an import's time went, seconds (the appends, including their
 * wait for PostgreSQL; the reads and decisions of the next batch, which overlap the appends; the
 * account-table reservations), or nothing without timings.
 */
function timingsNote(figures: ImportFigures): string {
  const t = figures.timings;
  if (!t) return '';
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return `; append ${s(t.appendMs)} s, read ${s(t.loadMs)} s and decide ${s(t.decideMs)} s beside it, reservations ${s(t.reserveMs)} s`;
}

/** What the table's import and replay rows cannot say. */
export const EDITION_NOTES: readonly string[] = [
  'import and replay count only the 2025 edition\'s events (the append peers and the synthetic edition write to databases of their own); older bench runs '
  + 'replayed 5 000 BenchHappened events with them, which no projection reads, so their replay rates are not comparable.',
  'the 2025 import runs the bulk path with accounts (as npm run import); bench runs before it imported command by command through the '
  + 'CommandService without accounts, so their import rates are not comparable.',
];

export function editionRows(imported: ImportFigures, replay: ReplayFigures): Row[] {
  const target = EDITION_TARGET_EVENTS_PER_SECOND;
  return [
    {
      measure: `import of the 2025 export in bulk, with accounts (${grouped(imported.events)} events)`,
      result: `${grouped(imported.eventsPerSecond)} events/s (${imported.seconds.toFixed(1)} s)${timingsNote(imported)}`,
      ratio: `${times(imported.eventsPerSecond, target)} target (no peer)`,
      target: `≥ ${grouped(target)} events/s (${verdict(imported.eventsPerSecond >= target)})`,
    },
    {
      measure: `replay, all projections into fresh tables (${grouped(replay.events)} events, best of ${replay.runs.length})`,
      result: `${grouped(replay.best)} events/s`,
      ratio: `${times(replay.best, target)} target (no peer)`,
      target: `≥ ${grouped(target)} events/s (${verdict(replay.best >= target)})`,
    },
  ];
}

/** The synthetic edition's row, or none when it was skipped (`synthetic` null). */
export function syntheticRows(synthetic: ImportFigures | null): Row[] {
  if (!synthetic) return [];
  const limit = SYNTHETIC_TARGET_SECONDS;
  return [{
    measure: `import of a synthetic edition in bulk, with accounts, own database (${grouped(synthetic.events)} events)`,
    result: `${synthetic.seconds.toFixed(1)} s (${grouped(synthetic.eventsPerSecond)} events/s)${timingsNote(synthetic)}`,
    ratio: `${times(synthetic.seconds, limit)} limit (no peer)`,
    target: `< ${limit} s for 1 000 000 events (${synthetic.events >= 1_000_000 ? verdict(synthetic.seconds < limit) : 'not judged: a smaller edition'})`,
  }];
}
