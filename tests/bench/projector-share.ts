/**
 * Projector throughput with the projections shared by one and by two processes.
 * Unit: events/s.
 *
 * The log as it stands (in `npm run bench`: the 2025 edition, ~16 700 events) is projected from
 * checkpoint 0 by real projector processes — services/projector/src/server.ts run as `npm start`
 * runs it (`node --import tsx`), on the bench's database and Redis with a BullMQ prefix of their
 * own — 1 or 2 of them, sharing the projections through their leases. A round: the processes
 * are started (or left running) until they have split the leases between them (their
 * 'leases changed' log lines) and are idle; the read models are then replaced by fresh, empty
 * ones (freshReadModels: migrated aside and swapped in, every checkpoint 0) and every projection
 * is woken (WakeUpPublisher, as after an append); the round's time runs from the swap until every
 * projection's checkpoint (rm.checkpoints, polled every 10 ms) has reached the head. events/s =
 * the head ÷ that time, counted as the replay row counts (each projection reads every event).
 * Rounds alternate 1 and 2 processes, `rounds` of each (default 3); the medians and their ratio
 * (the gain of the second process) are reported. The second process is started for each
 * 2-process round and stopped with SIGTERM after it (its leases go back to the first); since a
 * fresh process runs its first round measurably slower (JIT, caches), each process's first round
 * is an untimed warm-up (the first process's once, the second's before each timed 2-process
 * round).
 *
 * No peer and no target: the one-process figure is the two-process figure's peer. On a 2-core
 * machine that also runs PostgreSQL the gain is bounded by the cores, not by the projector.
 * The read models end caught up (every checkpoint at the head).
 *
 * Run alone: `npx tsx tests/bench/projector-share.ts` (embedded servers, the 2025 edition
 * imported into a scratch database first; DATABASE_URL / REDIS_URL name existing servers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { repoRoot } from '@sinilill/config';
import { PostgresEventStore, runMigrations } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import { READ_MODEL_SCHEMA, createReadModelDb, projections, readModelMigrationSet, type ReadModelDatabase } from '@sinilill/read-models';
import { grouped, median, printTable, progress, spread, times, type Row } from './report';

/** The schema fresh read models are built in before they are swapped in. */
const FRESH_SCHEMA = 'rm_fresh';

/**
 * Replaces the live read models (schema `rm`) by fresh, migrated, empty ones, every checkpoint
 * at 0: built in a schema aside, then swapped in by renaming in one transaction (as a replay
 * swaps, docs/decisions/0005), so a projector running meanwhile sees the old tables or the new ones. The old ones
 * are dropped.
 * @throws pg errors (the live schema is then untouched unless the swap committed).
 */
export async function freshReadModels(db: Kysely<ReadModelDatabase>): Promise<void> {
  await sql`DROP SCHEMA IF EXISTS ${sql.id(FRESH_SCHEMA)} CASCADE`.execute(db);
  await runMigrations(db, [readModelMigrationSet(FRESH_SCHEMA)]);
  await db.transaction().execute(async (trx) => {
    await sql`ALTER SCHEMA ${sql.id(READ_MODEL_SCHEMA)} RENAME TO ${sql.id(`${READ_MODEL_SCHEMA}_stale`)}`.execute(trx);
    await sql`ALTER SCHEMA ${sql.id(FRESH_SCHEMA)} RENAME TO ${sql.id(READ_MODEL_SCHEMA)}`.execute(trx);
    await sql`DROP SCHEMA ${sql.id(`${READ_MODEL_SCHEMA}_stale`)} CASCADE`.execute(trx);
  });
}

/** A projector process and what it says it holds. */
interface ProjectorProcess {
  child: ChildProcess;
  /** The projections its last 'ready' or 'leases changed' line named ([] before either). */
  held(): string[];
  output(): string;
  exited: Promise<void>;
}

/** Starts services/projector/src/server.ts on the bench's database and Redis. */
function startProjectorProcess(env: NodeJS.ProcessEnv): ProjectorProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/projector/src/server.ts')], {
    cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let held: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; held?: string[] };
        if ((entry.msg === 'leases changed' || entry.msg === 'ready') && Array.isArray(entry.held)) held = entry.held;
      } catch {
        // not a log line
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, held: () => held, output: () => output, exited };
}

/** Stops a projector process with SIGTERM (SIGKILL after 15 s) and waits for its exit. */
async function stopProjectorProcess(projector: ProjectorProcess): Promise<void> {
  if (projector.child.exitCode !== null || projector.child.signalCode !== null) return;
  const killer = setTimeout(() => projector.child.kill('SIGKILL'), 15_000);
  projector.child.kill('SIGTERM');
  await projector.exited;
  clearTimeout(killer);
}

/**
 * Waits until the running processes hold every projection between them, each at least one (when
 * there are no more processes than projections) and none twice.
 * @throws Error with the processes' output after `timeoutMs`, or when one of them exits.
 */
async function waitForSplit(running: readonly ProjectorProcess[], timeoutMs = 60_000): Promise<void> {
  const names = projections.map((p) => p.name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const helds = running.map((p) => p.held());
    const all = helds.flat();
    if (all.length === names.length && new Set(all).size === names.length && helds.every((h) => h.length > 0)) return;
    const dead = running.find((p) => p.child.exitCode !== null);
    if (dead || Date.now() > deadline) {
      throw new Error(`projector processes did not split the projections (${JSON.stringify(helds)}):\n${running.map((p) => p.output().slice(-2000)).join('\n---\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ProjectorShareFigures {
  /** The log's head: events each projection reads in a round. */
  events: number;
  /** events/s of each round with one process, and with two. */
  single: number[];
  shared: number[];
  singleMedian: number;
  sharedMedian: number;
  /** sharedMedian ÷ singleMedian. */
  gain: number;
}

/**
 * Times projecting the database's whole log from checkpoint 0 with 1 and with 2 projector
 * processes, `rounds` of each, alternating (see the module's comment). Leaves the read models
 * caught up.
 * @throws Error when a process does not start, or a round does not finish within `roundTimeoutMs`.
 */
export async function measureProjectorShare(options: {
  databaseUrl: string;
  redisUrl: string;
  rounds?: number;
  sweepIntervalMs?: number;
  roundTimeoutMs?: number;
}): Promise<ProjectorShareFigures> {
  const rounds = options.rounds ?? 3;
  const prefix = `benchshare${Date.now()}`;
  const dataDir = mkdtempSync(join(repoRoot, '.tmp-bench-share-'));
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: options.databaseUrl, REDIS_URL: options.redisUrl, BULLMQ_PREFIX: prefix, DATA_DIR: dataDir,
    SWEEP_INTERVAL_MS: String(options.sweepIntervalMs ?? 500), LOG_LEVEL: 'info', NODE_ENV: 'development',
    JWT_SECRET: 'bench-share-jwt-secret-0123456789-0123456789',
    EMAIL_INDEX_SECRET: 'bench-share-email-index-0123456789-0123',
    SANDBOX_PAYMENT_SECRET: 'bench-share-sandbox-payment-0123456789-01',
  };
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  const db = createReadModelDb(pool);
  const publisher = new WakeUpPublisher({ redisUrl: options.redisUrl, prefix });
  const log = new PostgresEventStore({ pool });
  const started: ProjectorProcess[] = [];
  const start = () => {
    const projector = startProjectorProcess(env);
    started.push(projector);
    return projector;
  };
  /** One round with `running` processes: fresh read models, wake, time until all reach the head. */
  const round = async (running: readonly ProjectorProcess[]): Promise<number> => {
    await waitForSplit(running);
    const head = await log.headPosition();
    await freshReadModels(db);
    const began = performance.now();
    void publisher.wake(head);
    const deadline = began + (options.roundTimeoutMs ?? 300_000);
    for (;;) {
      const rows = await db.withSchema(READ_MODEL_SCHEMA).selectFrom('checkpoints').select('position').execute();
      if (rows.length === projections.length && rows.every((row) => Number(row.position) >= head)) break;
      if (performance.now() > deadline) throw new Error(`round with ${running.length} process(es) did not reach ${head} in time: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seconds = (performance.now() - began) / 1000;
    progress(`  ${running.length} process(es): ${seconds.toFixed(2)} s, ${grouped(head / seconds)} events/s`);
    return head / seconds;
  };
  try {
    const events = await log.headPosition();
    const single: number[] = [];
    const shared: number[] = [];
    const first = start();
    // Untimed: a fresh process runs its first round measurably slower (JIT, caches).
    progress('projector share: a warm-up round with 1 process (not counted)');
    await round([first]);
    for (let i = 0; i < rounds; i++) {
      progress(`projector share ${i + 1}/${rounds}: ${grouped(events)} events from checkpoint 0 by 1 process`);
      single.push(await round([first]));
      progress(`projector share ${i + 1}/${rounds}: the same by 2 processes (after a warm-up round of the second)`);
      const second = start();
      await round([first, second]);
      shared.push(await round([first, second]));
      await stopProjectorProcess(second);
    }
    const singleMedian = median(single);
    const sharedMedian = median(shared);
    return { events, single, shared, singleMedian, sharedMedian, gain: sharedMedian / singleMedian };
  } finally {
    await Promise.all(started.map(stopProjectorProcess));
    await publisher.close();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The table's rows: one process (the peer), two processes with their gain. */
export function projectorShareRows(result: ProjectorShareFigures): Row[] {
  const runs = result.single.length;
  return [
    {
      measure: `projector catch-up from 0, all projections, 1 process (${grouped(result.events)} events, median of ${runs}; spread ${spread(result.single)})`,
      result: `${grouped(result.singleMedian)} events/s`,
      ratio: '',
      target: '',
    },
    {
      measure: `projector catch-up from 0, 2 processes sharing the projections (median of ${runs}; spread ${spread(result.shared)})`,
      result: `${grouped(result.sharedMedian)} events/s`,
      ratio: `${times(result.sharedMedian, result.singleMedian)} 1 process`,
      target: '',
    },
  ];
}

/** Alone: embedded (or the given) servers, the 2025 edition imported, then the measure. */
async function main(): Promise<void> {
  const [{ startLocalServers, createScratchDatabase }, { importEdition, migrateToLatest }, commands, eventStore, domain] = await Promise.all([
    import('@sinilill/local-infra'), import('@sinilill/cli'), import('@sinilill/commands'), import('@sinilill/event-store'), import('@sinilill/domain'),
  ]);
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    const url = await createScratchDatabase(servers.databaseServerUrl, 'bench_share');
    const pool = new pg.Pool({ connectionString: url, max: 12 });
    try {
      await migrateToLatest(pool);
      const store = eventStore.withPersonalDataProtection(
        new eventStore.PostgresEventStore({ pool }), new eventStore.PersonalDataVault({ pool }), domain.PERSONAL_DATA_FIELDS);
      progress('importing the 2025 export in bulk');
      await importEdition({ dir: join(repoRoot, 'infra/seed/edition-2025'), edition: 2025, store, pool, ids: new commands.PostgresIdAllocator(pool) });
    } finally {
      await pool.end();
    }
    const rounds = Number(process.env.BENCH_SHARE_ROUNDS ?? 3);
    printTable(projectorShareRows(await measureProjectorShare({ databaseUrl: url, redisUrl: servers.redisUrl, rounds })));
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
