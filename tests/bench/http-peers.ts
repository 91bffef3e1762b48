/**
 * POST /api/entry end to end beside the honest peer, a conventional Fastify + pg app doing the same
 * request (crud-peer.ts), with a Fastify hello world as a reference line. Units: requests/s (2xx
 * answers per second) and ms (p50/p99 latency).
 *
 * - The entry endpoint: the real command API (`buildCommandApi` of @sinilill/command-api) over the
 *   command side server.ts builds (`commandSide`: ids in blocks, the switches' cache, moderation's
 *   look-ups and warm team-day figures, the session check kept in memory with its LISTEN on
 *   session changes), the store wrapped as server.ts wraps it (personal-data protection, the
 *   projectors' wake-ups published to BullMQ by the after-commit hook, append metrics), logger off,
 *   listening on 127.0.0.1 in this process, on the database the 2025 edition was imported into;
 *   its clock is 2025-04-20T10:00Z, inside April, so entries are accepted. Each request is a whole
 *   POST /api/entry: JWT and session check, validation, the CommandService's decision with its
 *   moderation, the append (synchronous_commit on), the wake-up, the answer. No projector
 *   consumes the wake-ups meanwhile (it is a process of its own in production; here it would share
 *   this event loop).
 * - The peer (crud-peer.ts): the same JWT verified, the session checked with one SELECT, the
 *   participant's team and the April window checked, the entry row inserted and the team's total
 *   bumped in one durable transaction; same database, same tokens, same session rows.
 * - Hello world: a bare `fastify()` with `GET /` answering `{ hello: 'world' }` (reference only).
 *
 * Callers: `users` participants of the edition, one per team, each a real approved account with
 * a live session (tests/support/sessions.ts, tokens signed with the app's secret); every
 * connection cycles through all of them, each from its own place in the list (rotate-client.cjs),
 * so that at any moment the 32 connections are 32 different people, as in a rush (in step, all 32
 * were the same person at once, which no one can be). Each person logs the month, as members do
 * on its last evening: 1.25 km WALK for each day of April up to the clock's day, in turn (every
 * entry of one day made moderation's read of that day's entries grow through the run). Rate limits: none apply — rate-limits.ts limits only
 * the account routes (login, registration, password reset), not POST /api/entry — so the app
 * runs with its default limits and nothing is switched off.
 *
 * The load: autocannon, 32 connections, in one worker thread of its own (so that the load
 * generator does not share the servers' event loop), `seconds` per run; after a 1 s warm-up of
 * each, `rounds` alternating rounds (the order of the three rotates each round); figures are the
 * medians over the rounds. Non-2xx answers are counted and reported, never counted as throughput.
 *
 * Targets: POST /api/entry ≥ 70 % of the CRUD peer's requests/s; its p99 ≤ 1.5 × the peer's.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { AccountDirectory, withAfterCommit } from '@sinilill/commands';
import { buildCommandApi, commandSide, sessionChangeListener, withAppendMetrics } from '@sinilill/command-api';
import type { SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import { createMetricsRegistry } from '@sinilill/http';
import { NO_MAIL, testSessions } from '../support/sessions';
import { startCrudPeer } from './crud-peer';
import { load as loadInStep, type AutocannonRequest, type LoadFigures } from './load';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

/** The targets: entry requests/s as a share of the CRUD peer's, at least; p99 as a multiple of the peer's, at most. */
export const HTTP_TARGET = { shareOfPeer: 0.7, p99OfPeer: 1.5 } as const;

const INDEX_SECRET = 'bench-index-secret-0123456789';
const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';

export type RunFigures = LoadFigures;

/** autocannon with the options used here (it ships no types). */
type Autocannon = (options: {
  url: string; connections: number; duration: number; workers: number; requests: AutocannonRequest[]; setupClient: string;
}) => Promise<{ duration: number; errors: number; non2xx: number; '2xx': number; latency: { p50: number; p99: number }; statusCodeStats: Record<string, { count: number }> }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const ROTATE_CLIENT = fileURLToPath(new URL('./rotate-client.cjs', import.meta.url));

/** The days of April from the 1st to `last` (YYYY-MM-DD, in April), in order. */
function aprilDaysUntil(last: string): string[] {
  const days: string[] = [];
  for (let day = 1; day <= Number(last.slice(8, 10)); day++) days.push(`${last.slice(0, 8)}${String(day).padStart(2, '0')}`);
  return days;
}

/**
 * load.ts's run, except that each connection starts at its own place in `requests`
 * (rotate-client.cjs): with `requests` one per participant, the connections call as different
 * people at once. Without `requests`, load.ts's GET.
 */
async function load(url: string, connections: number, seconds: number, requests?: AutocannonRequest[]): Promise<LoadFigures> {
  if (!requests) return loadInStep(url, connections, seconds);
  const file = join(tmpdir(), `bench-rotated-requests-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(requests));
  process.env.BENCH_ROTATED_REQUESTS = file;
  const result = await autocannon({ url, connections, duration: seconds, workers: 1, requests, setupClient: ROTATE_CLIENT });
  return {
    requestsPerSecond: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99,
    non2xx: result.non2xx, errors: result.errors,
    statusCodes: Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', '),
  };
}

export interface HttpPeersResult {
  connections: number;
  seconds: number;
  users: number;
  teams: number;
  hello: RunFigures[];
  entry: RunFigures[];
  crud: RunFigures[];
}

/**
 * Runs both servers in this process and measures them (see the module comment). `databaseUrl`:
 * a migrated database with the 2025 edition imported and its read models built.
 */
export async function measureHttpPeers(options: {
  databaseUrl: string;
  redisUrl: string;
  now: Date;
  performedAt: string;
  connections: number;
  seconds: number;
  rounds: number;
  users: number;
}): Promise<HttpPeersResult> {
  const { connections, seconds } = options;
  const now = () => options.now;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  const accountPool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  const vault = new PersonalDataVault({ pool });
  const publisher = new WakeUpPublisher({ redisUrl: options.redisUrl, prefix: `benchhttp${Date.now()}` });
  // The projectors are woken by the store's after-commit hook, as in the command API's server.ts;
  // wake-ups still being sent are awaited before the publisher closes.
  const waking = new Set<Promise<void>>();
  let wakeFailures = 0;
  const store = withAppendMetrics(withAfterCommit(
    withPersonalDataProtection(new PostgresEventStore({ pool }), vault, PERSONAL_DATA_FIELDS),
    (position) => {
      const sent: Promise<void> = publisher.wake(position, () => { wakeFailures++; }).finally(() => waking.delete(sent));
      waking.add(sent);
    },
  ), createMetricsRegistry('bench-command-api', { defaultMetrics: false }));
  // Built as services/command-api/src/server.ts builds it (command-side.ts), its LISTEN on session changes started.
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET });
  const side = commandSide({ pool, store, directory, now, mailer: NO_MAIL, publicUrl: 'http://sinilill.bench', personalData: vault });
  const { ids } = side;
  const sessionChanges = sessionChangeListener(options.databaseUrl, side.sessions);
  await sessionChanges.start();
  const api = buildCommandApi({ commands: side.commands, accounts: side.accounts, sessions: side.sessions, jwtSecret: JWT_SECRET, logger: false });
  let crud: Awaited<ReturnType<typeof startCrudPeer>> | null = null;
  const hello = Fastify();
  hello.get('/', () => ({ hello: 'world' }));
  try {
    const entryUrl = await api.listen({ host: '127.0.0.1', port: 0 });
    const helloUrl = await hello.listen({ host: '127.0.0.1', port: 0 });

    // One participant per team, each a real account with a live session.
    const { rows: members } = await pool.query<{ participant_id: number; team_id: number; full_name: string | null; is_paid: boolean }>(
      `SELECT participant_id, team_id, full_name, is_paid FROM (
         SELECT DISTINCT ON (team_id) participant_id, team_id, full_name, is_paid FROM rm.team_members ORDER BY team_id, participant_id
       ) one_per_team ORDER BY team_id LIMIT $1`, [options.users]);
    if (members.length === 0) throw new Error('http peers: no participants in rm.team_members (import and replay first)');
    const people: SessionClaims[] = members.map((m) => ({
      userId: randomUUID(), fullName: m.full_name ?? 'Bench Person', is_approved: true,
      participantId: Number(m.participant_id), teamId: Number(m.team_id), role: 'USER', isPaid: m.is_paid,
    }));
    progress(`http peers: enrolling ${people.length} participants of ${new Set(people.map((p) => p.teamId)).size} teams`);
    const sessions = testSessions({ pool, store, ids }, { now });
    await sessions.enrol(...people);
    // A member logging the month: entries of every day of April up to `performedAt`, day by day;
    // the list runs through all the people for one day before the next day, so the connections,
    // each from its own place in it, are different people at any moment.
    const days = aprilDaysUntil(options.performedAt);
    const headers = people.map((person) => ({ authorization: sessions.bearer(api, person), 'content-type': 'application/json' }));
    const requests: AutocannonRequest[] = days.flatMap((day) => headers.map((personal) => ({
      method: 'POST', path: '/api/entry', headers: personal,
      body: JSON.stringify({ distance: 1.25, entry_type: 'WALK', performed_at: day }),
    })));
    const body = requests[0]!.body!;

    crud = await startCrudPeer({
      pool, jwtSecret: JWT_SECRET, today: options.now.toISOString().slice(0, 10),
      participants: new Map(people.map((p) => [p.participantId!, p.teamId!])),
    });
    const crudUrl = crud.url;

    // One request by hand to each first: a refusal here would make every figure below meaningless.
    for (const [name, url] of [['POST /api/entry', entryUrl], ['the CRUD peer', crudUrl]] as const) {
      const first = await fetch(`${url}/api/entry`, { method: 'POST', headers: requests[0]!.headers, body });
      if (first.status !== 200) throw new Error(`http peers: ${name} answered ${first.status}: ${await first.text()}`);
    }

    progress(`http peers: warm-up, 1 s each at ${connections} connections`);
    await load(helloUrl, connections, 1);
    await load(entryUrl, connections, 1, requests);
    await load(crudUrl, connections, 1, requests);

    const figures = { hello: [] as RunFigures[], entry: [] as RunFigures[], crud: [] as RunFigures[] };
    const servers = ['hello', 'entry', 'crud'] as const;
    for (let round = 0; round < options.rounds; round++) {
      // Each round starts with another of the three, so none always runs first or last.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
      for (const which of order) {
        figures[which].push(which === 'hello'
          ? await load(helloUrl, connections, seconds)
          : await load(which === 'entry' ? entryUrl : crudUrl, connections, seconds, requests));
      }
      const [h, e, c] = [figures.hello.at(-1)!, figures.entry.at(-1)!, figures.crud.at(-1)!];
      progress(`http peers: round ${round + 1}/${options.rounds} (${order.join(', ')}): hello world ${Math.round(h.requestsPerSecond)} req/s; `
        + `POST /api/entry ${Math.round(e.requestsPerSecond)} req/s, p50 ${e.p50} ms, p99 ${e.p99} ms, answers {${e.statusCodes}}, ${e.errors} errors; `
        + `CRUD peer ${Math.round(c.requestsPerSecond)} req/s, p50 ${c.p50} ms, p99 ${c.p99} ms, answers {${c.statusCodes}}, ${c.errors} errors`);
    }
    if (wakeFailures > 0) progress(`http peers: ${wakeFailures} wake-ups failed or timed out (the projectors' sweep would catch up)`);
    return { connections, seconds, users: people.length, teams: new Set(people.map((p) => p.teamId)).size, ...figures };
  } finally {
    await hello.close();
    await crud?.close();
    await api.close();
    await sessionChanges.close();
    await Promise.allSettled([...waking]);
    await publisher.close();
    await accountPool.end();
    await pool.end();
  }
}

/** What the table's HTTP rows cannot say: who called, and why no rate limit was touched. */
export function httpNotes(result: HttpPeersResult): string[] {
  return [
    `POST /api/entry was called as ${result.users} participants of ${result.teams} teams of the imported 2025 edition, each a real approved `
    + 'account with a live session (JWT signed with the app\'s secret), every connection cycling through all of them from its own place '
    + '(32 different people at any moment; until this run all 32 connections were the same person in step), each person logging the '
    + 'month: 1.25 km WALK for each day of April to the 20th in turn (until this run every entry was of the 20th); the app\'s clock is '
    + '2025-04-20T10:00Z. Rate limits: none applies to POST /api/entry (rate-limits.ts limits only login, registration and password '
    + 'reset), so the command API ran with its defaults and nothing was switched off. The load generator (autocannon) ran in a worker thread.',
    'The CRUD peer (crud-peer.ts) took the same tokens on the same database: JWT verified, the session checked with one SELECT of the same '
    + 'session rows, the participant\'s team and the April window checked with one SELECT, then BEGIN, INSERT the entry row, UPDATE the '
    + 'team\'s total, COMMIT (synchronous_commit on): six sequential round trips, no moderation, no idempotency, no log. Ours: two (the '
    + 'command\'s one read and the append; tests/int/round-trips.int.test.ts).',
  ];
}

export function httpRows(result: HttpPeersResult): Row[] {
  const hello = median(result.hello.map((r) => r.requestsPerSecond));
  const entry = median(result.entry.map((r) => r.requestsPerSecond));
  const crud = median(result.crud.map((r) => r.requestsPerSecond));
  const [p50, p99] = [median(result.entry.map((r) => r.p50)), median(result.entry.map((r) => r.p99))];
  const [crudP50, crudP99] = [median(result.crud.map((r) => r.p50)), median(result.crud.map((r) => r.p99))];
  const share = entry / crud;
  const refused = result.entry.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const crudRefused = result.crud.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const how = `${result.connections} connections, median of ${result.entry.length} × ${result.seconds} s`;
  return [
    {
      measure: `HTTP: Fastify hello world, GET / (${how}; reference)`,
      result: `${grouped(hello)} req/s (${spread(result.hello.map((r) => r.requestsPerSecond))})`,
      ratio: '(reference)',
      target: '',
    },
    {
      measure: `HTTP: CRUD peer, POST /api/entry in one SQL transaction (${how}; ${crudRefused} non-2xx/errors)`,
      result: `${grouped(crud)} req/s (${spread(result.crud.map((r) => r.requestsPerSecond))})`,
      ratio: `(peer) ${times(crud, hello)} hello world`,
      target: '',
    },
    {
      measure: `HTTP: POST /api/entry end to end (${result.users} participants in ${result.teams} teams, 32 at once; ${refused} non-2xx/errors)`,
      result: `${grouped(entry)} req/s (${spread(result.entry.map((r) => r.requestsPerSecond))})`,
      ratio: `${times(entry, crud)} CRUD peer (${(share * 100).toFixed(1)} %); ${times(entry, hello)} hello world`,
      target: `≥ ${HTTP_TARGET.shareOfPeer * 100} % of the CRUD peer (${verdict(share >= HTTP_TARGET.shareOfPeer)})`,
    },
    {
      measure: 'HTTP: CRUD peer latency p50 / p99',
      result: `${grouped(crudP50, 1)} / ${grouped(crudP99, 1)} ms`,
      ratio: '(peer)',
      target: '',
    },
    {
      measure: 'HTTP: POST /api/entry latency p50 / p99',
      result: `${grouped(p50, 1)} / ${grouped(p99, 1)} ms (p99 ${spread(result.entry.map((r) => r.p99), 1)})`,
      ratio: `p99 ${times(p99, crudP99)} CRUD peer`,
      target: `p99 ≤ ${HTTP_TARGET.p99OfPeer}× the CRUD peer's (${verdict(p99 <= HTTP_TARGET.p99OfPeer * crudP99)})`,
    },
  ];
}
