/**
 * The rush: the last evening of April, when whole teams log their month. A load test in the
 * bench (printed, never failed): `npm run bench` runs it as a step of its own, and
 * `npx tsx tests/bench/rush.ts` runs it alone (DATABASE_URL / REDIS_URL when set, else embedded
 * PostgreSQL and redis-server in a temporary folder; compared with the last kept run, not kept).
 *
 * 1. A database of its own (`bench_rush_…`, dropped afterwards), migrated, with the 2025 edition
 *    planned and opened and `teams` teams and `participants` participants brought in by the bulk
 *    importer as `npm run import` brings an export in (rush/people.ts: 150 and 1 000 by default,
 *    with their accounts and 13 earlier entries each).
 * 2. The stack as production lays it out (rush/stack.ts): command API, query API and projector
 *    each a process of its own, nginx with infra/nginx/sinilill.conf in front; the clock 30 April
 *    2025, 20:00 Tallinn time, the last evening of entries.
 * 3. Real logins: the administrator (ADMIN_EMAIL) gives every account a password through POST
 *    /api/admin/resetpassword, then every participant logs in through POST /api/login from an
 *    address of their own (rush/clients.ts) and keeps the access token it answers. Both cost an
 *    argon2id hash each (2 000 hashes of tens of ms of CPU each): set-up, not measured.
 * 4. The evening (rush/evening.ts): for `seconds` s (60) every participant adds `entriesEach`
 *    (3) entries at moments spread over it and reads their team page back as the web client does;
 *    the readers (2 per team: 300) keep the team page's live stream open, reload the team page
 *    and the home page every `refreshSeconds` s (5), and read the team again on each change.
 * 5. Afterwards: the projector catches up to the log's head; the services stop; every read model
 *    is rebuilt from the log and compared with the live tables, table by table
 *    (rebuildReadModels' checksums, packages/read-models/src/checksums.ts); the log must hold
 *    exactly the entries whose POST answered 200.
 *
 * Printed: requests/s through nginx over the evening; the error count (target 0) and, in the
 * notes, each error's route and cause; p50 / p99 per route, ms (target for POST /api/entry: p99 ≤
 * 250 ms); the lag from an entry's answer to the change on its team's live stream, p50 / p95 /
 * p99, ms; the writer's read-your-writes; whether the read models equal a replay; the step's own
 * seconds (target < 3 minutes). Units: ms of wall time in this process, which also runs every
 * client: the load generator's event-loop delay is printed beside them.
 *
 * BENCH_RUSH_SCALE (default 1) scales participants, teams and readers for a quick look (0.2: 200
 * participants of 30 teams); 0 skips the step in `npm run bench`.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { AccountDirectory, CommandService, PostgresIdAllocator, accountUserId } from '@sinilill/commands';
import { ensureEditionOpen, importRows, migrateToLatest } from '@sinilill/cli';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { createScratchDatabase, startLocalServers } from '@sinilill/local-infra';
import { createReadModelDb, projections, readCheckpoints, rebuildReadModels, type ReadModelDatabase } from '@sinilill/read-models';
import { E2E_ADMIN } from '../support/e2e-stacks';
import { compareRows, lastKeptRun } from './kept-runs';
import { LAG_TARGET } from './lag';
import { grouped, percentile, printTable, progress, times, verdict, type Row } from './report';
import { clientAddress, Recorder, RushClient, bodyText, type RushRoute } from './rush/clients';
import { playEvening, type EveningFigures } from './rush/evening';
import { rushPeople } from './rush/people';
import { nginxAvailable } from './stats-peers';
import { startRushStack } from './rush/stack';

/** The evening at scale 1: 1 000 participants of 150 teams, 2 readers a team (300), 3 entries each in 60 s, pages reloaded every 5 s. */
export const RUSH = { teams: 150, participants: 1000, readersPerTeam: 2, entriesEach: 3, seconds: 60, refreshSeconds: 5, drainMs: 10_000 } as const;

/** Targets: no error; POST /api/entry p99, ms; the step's wall time, s. */
export const RUSH_TARGET = { errors: 0, entryP99Ms: 250, stepSeconds: 180 } as const;

/** 20:00 in Tallinn on the edition's last day: entries are accepted (until 3 May for April's days). */
const CLOCK_START = '2025-04-30T20:00:00+03:00';
const JWT_SECRET = 'bench-rush-jwt-secret-that-is-long-enough-0123456789';
const EMAIL_INDEX_SECRET = 'bench-rush-email-index-secret-0123456789';
/** How many set-up calls (password resets, logins: an argon2id hash each) are in flight at once. */
const SETUP_CONCURRENCY = 8;

/** The routes in the table's order. */
const ROUTES: readonly RushRoute[] = [
  'POST /api/entry', 'GET /api/team/{id}', 'GET /api/team/{id}/participants', 'GET /api/team/{id}/entries',
  'GET /api/stats', 'GET /api/settings', 'GET /api/editions', 'GET /api/team/{id}/live (until its first byte)',
];

/** BENCH_RUSH_SCALE: 1 unless set; 0 skips the rush. @throws Error for anything but a number in [0, 1]. */
export function rushScaleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_RUSH_SCALE?.trim();
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 0 || scale > 1) throw new Error(`BENCH_RUSH_SCALE must be a number from 0 to 1, not ${raw}`);
  return scale;
}

export interface RushFigures {
  participants: number;
  teams: number;
  readers: number;
  evening: EveningFigures;
  /** Time, ms, and outcome count per route. */
  routes: { route: RushRoute; calls: number; p50: number; p99: number }[];
  errors: number;
  /** Each error's route and cause, with its count, most frequent first. */
  errorCauses: string[];
  /** The services' own error lines (level error and above), first few, distinct. */
  serviceErrors: string[];
  /** nginx's error log by kind, with counts, most frequent first. */
  nginxErrors: string[];
  /** The projector's catch-up to the log's head after the last call, ms. */
  catchUpMs: number;
  /** The replay's checksum comparison. */
  tables: number;
  mismatched: string[];
  /**
   * The log against the writers' keys (by each EntryAdded's command id, `<userId>:<key>`): entries
   * the evening appended; keys answered 200 that the log holds not exactly once; keys refused
   * (4xx) that it holds; keys of unknown outcome (5xx, no answer) that it holds more than once.
   */
  log: { entries: number; answeredNotOnce: number; refusedButThere: number; unknownTwice: number; unknownThere: number };
  /** CPU seconds of each service and of this process over the evening. */
  cpuSeconds: Record<string, number>;
  /** Share of the machine's CPU time busy over the evening (every process, other work included), 0–1. */
  machineBusy: number;
  /** The step's phases, s. */
  phases: Record<string, number>;
  seconds: number;
  loadBefore: number;
  loadAfter: number;
}

/** utime + stime of process `pid`, s (Linux /proc; 0 elsewhere). */
function cpuOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Resolves once every projection's checkpoint reached `position`: null then, else (after
 * `boundMs`) the checkpoints, by projection.
 */
async function caughtUp(db: Kysely<ReadModelDatabase>, position: number, boundMs: number): Promise<Record<string, number> | null> {
  for (const deadline = performance.now() + boundMs; ;) {
    const checkpoints = await readCheckpoints(db);
    if (projections.every((p) => (checkpoints[p.name] ?? 0) >= position)) return null;
    if (performance.now() > deadline) return checkpoints;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The machine's CPU time so far, busy and in all, in clock ticks (Linux /proc/stat; zeros elsewhere). */
function machineCpu(): { busy: number; total: number } {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
    return { busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Runs `work` on every item with at most `limit` in flight. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let index = next++; index < items.length; index = next++) await work(items[index]!, index);
  }));
}

/**
 * Plays the rush on a database of its own on the PostgreSQL server of `serverUrl`, with the Redis
 * of `redisUrl` (see the module comment).
 * @returns null when nginx is not installed (the rush is production's front door or nothing).
 * @throws Error when a service does not start, the set-up's logins fail or the streams do not
 *   open; the evening's own failures are figures, not throws.
 */
export async function measureRush(options: { serverUrl: string; redisUrl: string; scale?: number }): Promise<RushFigures | null> {
  if (!nginxAvailable()) {
    progress('rush: nginx is not installed here (tests/support/ensure-system.ts installs nginx-light): skipped');
    return null;
  }
  const began = performance.now();
  const loadBefore = loadavg()[0]!;
  const scale = options.scale ?? 1;
  const teams = Math.max(1, Math.round(RUSH.teams * scale));
  const participants = Math.max(teams * RUSH.readersPerTeam, Math.round(RUSH.participants * scale));
  const phases: Record<string, number> = {};
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = (now - mark) / 1000;
    mark = now;
  };

  const url = await createScratchDatabase(options.serverUrl, 'bench_rush');
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const accountPool = new pg.Pool({ connectionString: url, max: 4 });
  const db = createReadModelDb(pool);
  const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
  const recorder = new Recorder();
  const clients: RushClient[] = [];
  let stack: Awaited<ReturnType<typeof startRushStack>> | undefined;
  try {
    // 1. The people, through the bulk importer.
    await migrateToLatest(pool);
    const ids = new PostgresIdAllocator(pool);
    const { edition } = await ensureEditionOpen({ store, commands: new CommandService({ store, ids, now: () => new Date() }) }, edition2025, 'import:rush');
    const { rows, people } = rushPeople({ teams, participants, readersPerTeam: RUSH.readersPerTeam });
    progress(`rush: importing ${teams} teams, ${participants} participants with accounts and ${grouped(rows.entryCount)} earlier entries`);
    const directory = new AccountDirectory({ pool: accountPool, indexSecret: EMAIL_INDEX_SECRET });
    await importRows(rows, { store, pool, directory, ids, label: 'rush', edition });
    phase('import');

    // 2. The stack, caught up with the import.
    progress('rush: starting the command API, the query API and the projector behind nginx');
    stack = await startRushStack({
      databaseUrl: url, redisUrl: options.redisUrl, jwtSecret: JWT_SECRET, emailIndexSecret: EMAIL_INDEX_SECRET,
      clockStart: CLOCK_START, admin: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    });
    const head = await store.headPosition();
    const behind = await caughtUp(db, head, 120_000);
    if (behind) throw new Error(`rush: the projector did not catch up with the import (position ${head}) in 120 s: ${JSON.stringify(behind)}`);
    phase('stack');

    // 3. Passwords by the administrator, then every participant's own login.
    const admin = new RushClient(stack.url, '127.0.0.1', recorder);
    clients.push(admin);
    const adminLogin = await admin.call(null, 'POST', '/api/login', { body: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
    if (adminLogin.status !== 200) throw new Error(`rush: the administrator's login answered ${adminLogin.status}: ${bodyText(adminLogin)}`);
    admin.token = (JSON.parse(bodyText(adminLogin)) as { token: string }).token;
    const passwords = people.map((person) => `Viimane õhtu ${person.participantId} ${Math.random().toString(36).slice(2, 10)}!`);
    progress(`rush: ${participants} passwords set by the administrator, then ${participants} logins (argon2id each)`);
    await eachLimited(people, SETUP_CONCURRENCY, async (person, i) => {
      const answer = await admin.call(null, 'POST', '/api/admin/resetpassword', {
        body: { userId: accountUserId(`import:rush:participant:${person.participantId}`), newPassword: passwords[i] },
        idempotencyKey: randomUUID(),
      });
      if (answer.status !== 200) throw new Error(`rush: the password of participant ${person.participantId} was not set (${answer.status}): ${bodyText(answer)}`);
    });
    phase('passwords');
    const participantClients = people.map((_, i) => new RushClient(stack!.url, clientAddress(i), recorder));
    clients.push(...participantClients);
    await eachLimited(people, SETUP_CONCURRENCY, async (person, i) => {
      const client = participantClients[i]!;
      const answer = await client.call(null, 'POST', '/api/login', { body: { email: person.email, password: passwords[i] } });
      if (answer.status !== 200) throw new Error(`rush: participant ${person.participantId} could not log in (${answer.status}): ${bodyText(answer)}`);
      client.token = (JSON.parse(bodyText(answer)) as { token: string }).token;
    });
    phase('logins');

    // 4. The evening.
    const readers = people.filter((person) => person.reader).length;
    progress(`rush: the evening, ${RUSH.seconds} s: ${participants} participants add ${RUSH.entriesEach} entries each; ${readers} readers with their live streams`);
    const headBefore = await store.headPosition();
    const cpuStart = Object.fromEntries(stack.services.map(({ name, process }) => [name, cpuOf(process.child.pid)]));
    const ownStart = process.cpuUsage();
    const machineStart = machineCpu();
    const evening = await playEvening(people, participantClients, recorder, {
      seconds: RUSH.seconds, entriesEach: RUSH.entriesEach, refreshSeconds: RUSH.refreshSeconds, drainMs: RUSH.drainMs,
    });
    const own = process.cpuUsage(ownStart);
    const cpuSeconds: Record<string, number> = Object.fromEntries(stack.services.map(({ name, process }) => [name, cpuOf(process.child.pid) - cpuStart[name]!]));
    cpuSeconds['load generator (this process)'] = (own.user + own.system) / 1e6;
    const machineEnd = machineCpu();
    const machineBusy = (machineEnd.busy - machineStart.busy) / Math.max(1, machineEnd.total - machineStart.total);
    phase('evening');

    // 5. Caught up, stopped, replayed and compared.
    const catchUpStarted = performance.now();
    const finalHead = await store.headPosition();
    const stillBehind = await caughtUp(db, finalHead, 60_000);
    if (stillBehind) recorder.error(`the projector had not reached position ${finalHead} 60 s after the evening: ${JSON.stringify(stillBehind)}`);
    const catchUpMs = performance.now() - catchUpStarted;
    const log = await entriesAgainstKeys(store, headBefore, evening.keys);
    const serviceErrors = [...new Set(stack.errorLines())].slice(0, 10);
    const nginxErrors = [...stack.nginxErrors().entries()].sort((a, b) => b[1] - a[1]).map(([what, count]) => `${count} × ${what}`);
    await Promise.all(clients.map((client) => client.close()));
    await stack.stop();
    stack = undefined;
    progress('rush: every read model rebuilt from the log and compared with the live tables');
    const replay = await rebuildReadModels(db, store, projections);
    phase('replay');

    const routes = ROUTES.map((route) => ({ route, ...recorder.figures(route) }));
    const errorCauses = [...recorder.errors.entries()].sort((a, b) => b[1] - a[1]).map(([what, count]) => `${count} × ${what}`);
    return {
      participants, teams, readers, evening, routes, errors: recorder.errorCount(), errorCauses, serviceErrors, nginxErrors, catchUpMs,
      tables: replay.checksums.length,
      mismatched: replay.checksums.filter((c) => !c.match).map((c) => `${c.table} (live ${c.live?.rows ?? '—'} rows, replay ${c.rebuilt.rows})`),
      log, cpuSeconds, machineBusy, phases, seconds: (performance.now() - began) / 1000, loadBefore, loadAfter: loadavg()[0]!,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
    await db.destroy().catch(() => undefined);
    if (!pool.ending) await pool.end();
    await accountPool.end();
    await dropDatabase(options.serverUrl, url);
  }
}

/** The evening's EntryAdded events (after `after`) against the writers' keys (RushFigures.log). */
async function entriesAgainstKeys(store: EventStore, after: number, keys: EveningFigures['keys']): Promise<RushFigures['log']> {
  const added = await store.readEvents({ category: 'entry', types: ['EntryAdded'] });
  const times = new Map<string, number>();
  let entries = 0;
  for (const event of added) {
    if (event.globalPosition <= after) continue;
    entries += 1;
    const key = String(event.metadata.commandId ?? '').split(':').at(-1)!;
    times.set(key, (times.get(key) ?? 0) + 1);
  }
  const log = { entries, answeredNotOnce: 0, refusedButThere: 0, unknownTwice: 0, unknownThere: 0 };
  for (const [key, outcome] of keys) {
    const count = times.get(key) ?? 0;
    if (outcome === 'added' && count !== 1) log.answeredNotOnce += 1;
    if (outcome === 'refused' && count > 0) log.refusedButThere += 1;
    if (outcome === 'unknown' && count > 1) log.unknownTwice += 1;
    if (outcome === 'unknown' && count === 1) log.unknownThere += 1;
  }
  return log;
}

/** Drops the rush's database; a failure is only reported. */
async function dropDatabase(serverUrl: string, url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${decodeURIComponent(new URL(url).pathname.slice(1))}" WITH (FORCE)`);
  } catch (error) {
    progress(`rush: could not drop its database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** The table's rows for the rush. */
export function rushRows(f: RushFigures | null): Row[] {
  if (!f) return [{ measure: 'rush through nginx', result: 'skipped: nginx is not installed here', ratio: '', target: '' }];
  const who = `${grouped(f.participants)} participants of ${f.teams} teams, ${f.readers} readers`;
  const entry = f.routes.find((r) => r.route === 'POST /api/entry')!;
  const lag = (p: number) => percentile(f.evening.lags, p);
  const rows: Row[] = [
    {
      measure: `rush through nginx (${who}, ${RUSH.seconds} s): requests/s`,
      result: `${grouped(f.evening.calls / f.evening.seconds)} req/s (${grouped(f.evening.calls)} calls in ${f.evening.seconds.toFixed(1)} s; ${grouped(f.evening.entriesAdded)} entries added)`,
      ratio: '',
      target: '',
    },
    {
      measure: 'rush: errors (answers outside 2xx, failed calls, stale or missing reads, dropped streams, unheard entries)',
      result: `${grouped(f.errors)} errors`,
      ratio: '',
      target: `${RUSH_TARGET.errors} (${verdict(f.errors <= RUSH_TARGET.errors)})`,
    },
  ];
  for (const route of f.routes) {
    const judged = route.route === 'POST /api/entry';
    rows.push({
      measure: `rush: ${route.route} p50 / p99`,
      result: `${route.p50.toFixed(1)} / ${route.p99.toFixed(1)} ms (${grouped(route.calls)} calls)`,
      ratio: judged ? `${times(entry.p99, RUSH_TARGET.entryP99Ms)} limit (no peer)` : '',
      target: judged ? `p99 ≤ ${RUSH_TARGET.entryP99Ms} ms (${verdict(entry.p99 <= RUSH_TARGET.entryP99Ms)})` : '',
    });
  }
  rows.push(
    {
      measure: 'rush: lag, POST /api/entry answered → its team\'s live stream announced it, p50 / p95 / p99',
      result: `${lag(50).toFixed(1)} / ${lag(95).toFixed(1)} / ${lag(99).toFixed(1)} ms (${grouped(f.evening.lags.length)} entries; ${f.evening.unheard} never announced)`,
      ratio: `${times(lag(99), LAG_TARGET.p99Ms)} lag.ts's limit`,
      target: `— (lag.ts: p99 ≤ ${LAG_TARGET.p99Ms} ms at ${LAG_TARGET.rate} appends/s)`,
    },
    {
      measure: 'rush: read-your-writes, POST answered → the writer\'s three team reads (x-min-position) answered, p50 / p99',
      result: `${percentile(f.evening.readYourWrites, 50).toFixed(1)} / ${percentile(f.evening.readYourWrites, 99).toFixed(1)} ms`,
      ratio: '',
      target: '',
    },
    {
      measure: 'rush: afterwards, the read models vs a replay of the log',
      result: `${f.mismatched.length === 0 ? `${f.tables} of ${f.tables} tables match` : `${f.mismatched.length} of ${f.tables} tables differ: ${f.mismatched.join(', ')}`}`
        + ` (the projector caught up ${grouped(f.catchUpMs)} ms after the last call)`,
      ratio: '',
      target: `all match (${verdict(f.mismatched.length === 0)})`,
    },
    {
      measure: 'rush: the log vs the writers\' Idempotency-Keys: each entry answered 200 there once, none refused there, none twice',
      result: `${grouped(f.log.entries)} entries appended (${grouped(f.evening.entriesAdded)} answered 200; `
        + `${f.log.answeredNotOnce} answered but not there once, ${f.log.refusedButThere} refused but there, ${f.log.unknownTwice} twice; `
        + `${f.log.unknownThere} appended whose answer was lost)`,
      ratio: '',
      target: `exactly once (${verdict(f.log.answeredNotOnce + f.log.refusedButThere + f.log.unknownTwice === 0)})`,
    },
    {
      measure: 'rush: the step\'s time',
      result: `${f.seconds.toFixed(0)} s (${Object.entries(f.phases).map(([name, s]) => `${name} ${s.toFixed(0)}`).join(', ')} s)`,
      ratio: `${times(f.seconds, RUSH_TARGET.stepSeconds)} limit`,
      target: `< ${RUSH_TARGET.stepSeconds} s (${verdict(f.seconds < RUSH_TARGET.stepSeconds)})`,
    },
  );
  return rows;
}

/** What the rows cannot say: the errors' causes, the machine, where the CPU went. */
export function rushNotes(f: RushFigures | null): string[] {
  if (!f) return [];
  const notes = [
    `rush: load average ${f.loadBefore.toFixed(2)} before, ${f.loadAfter.toFixed(2)} after (${f.participants} clients, the three services, nginx and PostgreSQL share the machine's cores); `
    + `the load generator's event-loop delay p99 ${f.evening.loopDelay.p99.toFixed(1)} ms, max ${f.evening.loopDelay.max.toFixed(1)} ms (in every time of the rush)`,
    `rush: CPU seconds over the evening: ${Object.entries(f.cpuSeconds).map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ')}; `
    + `the machine's cores were ${(f.machineBusy * 100).toFixed(0)} % busy (every process on it)`,
    `rush: GET /api/stats through nginx's one-second cache: ${Object.entries(f.evening.statsCache).map(([status, n]) => `${status} ${n}`).join(', ')} `
    + '(a logged-in page\'s token does not pass it by: the answer is everyone\'s)',
  ];
  if (f.errorCauses.length > 0) notes.push(`rush: errors by route and cause: ${f.errorCauses.join('; ')}`);
  if (f.serviceErrors.length > 0) notes.push(`rush: the services logged errors: ${f.serviceErrors.join('; ')}`);
  if (f.nginxErrors.length > 0) notes.push(`rush: nginx logged: ${f.nginxErrors.join('; ')}`);
  return notes;
}

/** `npx tsx tests/bench/rush.ts`: the rush alone, compared with the last kept run (not kept: the table would lack the other lines). */
async function main(): Promise<void> {
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    const scale = rushScaleFromEnv();
    const figures = await measureRush({ serverUrl: servers.databaseServerUrl, redisUrl: servers.redisUrl, scale: scale > 0 ? scale : 1 });
    const compared = compareRows(rushRows(figures), lastKeptRun(join(repoRoot, 'docs/bench/runs')));
    printTable(compared.rows, rushNotes(figures));
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
