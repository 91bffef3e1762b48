/**
 * POST /api/entry end to end beside a Fastify hello world. Units: requests/s
 * (2xx answers per second) and ms (p99 latency of POST /api/entry).
 *
 * - The entry endpoint: the real command API (`buildCommandApi` of @sinilill/command-api, wired
 *   as services/command-api/src/server.ts wires it: personal-data protection, id allocator,
 *   account directory on a pool of its own, the entry-insertion switch read from the log, the
 *   read-model look-ups, the projectors' wake-ups published to BullMQ by the store's
 *   after-commit hook, logger off) listening on 127.0.0.1 in this process, on the database the
 *   2025 edition was imported into; its clock is 2025-04-20T10:00Z, inside April, so entries are
 *   accepted. Each request is a whole
 *   POST /api/entry: JWT and session check, validation, the CommandService's decision, the append
 *   (synchronous_commit on), the wake-up, the answer. No projector consumes the wake-ups meanwhile
 *   (it is a process of its own in production; here it would share this event loop).
 *   Callers: `users` participants of the edition, one per team, each a real approved account with
 *   a live session (tests/support/sessions.ts, tokens signed with the app's secret); every
 *   connection cycles through all of them. Rate limits: none apply — rate-limits.ts limits only
 *   the account routes (login, registration, password reset), not POST /api/entry — so the app
 *   runs with its default limits and nothing is switched off.
 * - The peer: a bare `fastify()` with `GET /` answering `{ hello: 'world' }`, also on 127.0.0.1
 *   in this process.
 *
 * The load: autocannon, 32 connections, in one worker thread of its own (so that the load
 * generator does not share the servers' event loop), `seconds` per run; after a 1 s warm-up of
 * each, `rounds` alternating rounds (hello world first in odd rounds, the entry endpoint first in
 * even ones); figures are the medians over the rounds. Non-2xx answers are counted and reported,
 * never counted as throughput.
 *
 * Targets: POST /api/entry ≥ 30 % of hello world's requests/s; its p99 ≤ 50 ms.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, PostgresIdAllocator, SettingsCache, withAfterCommit } from '@sinilill/commands';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import type { SessionClaims } from '@sinilill/contracts';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import { NO_MAIL, testSessions } from '../support/sessions';
import { load, type AutocannonRequest, type LoadFigures } from './load';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

/** The targets: entry requests/s as a share of hello world's, at least; p99, ms, at most. */
export const HTTP_TARGET = { shareOfHelloWorld: 0.3, p99Ms: 50 } as const;

const INDEX_SECRET = 'bench-index-secret-0123456789';
const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';

export type RunFigures = LoadFigures;

export interface HttpPeersResult {
  connections: number;
  seconds: number;
  users: number;
  teams: number;
  hello: RunFigures[];
  entry: RunFigures[];
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
  const store = withAfterCommit(
    withPersonalDataProtection(new PostgresEventStore({ pool }), vault, PERSONAL_DATA_FIELDS),
    (position) => {
      const sent: Promise<void> = publisher.wake(position, () => { wakeFailures++; }).finally(() => waking.delete(sent));
      waking.add(sent);
    },
  );
  // Wired as services/command-api/src/server.ts wires it (ids in blocks, the switches' cache, the stream index).
  const ids = new PostgresIdAllocator(pool, { block: 32 });
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET });
  const commands = new CommandService({
    store, ids, now, directory,
    settings: new SettingsCache(),
    personalData: vault,
    streamIndex: store,
    ...readModelLookups(pool),
  });
  const accounts = new AccountService({ store, ids, directory, mailer: NO_MAIL, now, publicUrl: 'http://sinilill.bench' });
  const api = buildCommandApi({ commands, accounts, jwtSecret: JWT_SECRET, logger: false });
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
    const body = JSON.stringify({ distance: 1.25, entry_type: 'WALK', performed_at: options.performedAt });
    const requests: AutocannonRequest[] = people.map((person) => ({
      method: 'POST', path: '/api/entry', body,
      headers: { authorization: sessions.bearer(api, person), 'content-type': 'application/json' },
    }));

    // One request by hand first: a refusal here would make every figure below meaningless.
    const first = await fetch(`${entryUrl}/api/entry`, { method: 'POST', headers: requests[0]!.headers, body });
    if (first.status !== 200) throw new Error(`http peers: POST /api/entry answered ${first.status}: ${await first.text()}`);

    progress(`http peers: warm-up, 1 s each at ${connections} connections`);
    await load(helloUrl, connections, 1);
    await load(entryUrl, connections, 1, requests);

    const figures = { hello: [] as RunFigures[], entry: [] as RunFigures[] };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (['hello', 'entry'] as const) : (['entry', 'hello'] as const);
      for (const which of order) {
        figures[which].push(which === 'hello'
          ? await load(helloUrl, connections, seconds)
          : await load(entryUrl, connections, seconds, requests));
      }
      const h = figures.hello.at(-1)!;
      const e = figures.entry.at(-1)!;
      progress(`http peers: round ${round + 1}/${options.rounds} (${order.join(' then ')}): hello world ${Math.round(h.requestsPerSecond)} req/s; `
        + `POST /api/entry ${Math.round(e.requestsPerSecond)} req/s, p99 ${e.p99} ms, answers {${e.statusCodes}}, ${e.errors} errors`);
    }
    if (wakeFailures > 0) progress(`http peers: ${wakeFailures} wake-ups failed or timed out (the projectors' sweep would catch up)`);
    return { connections, seconds, users: people.length, teams: new Set(people.map((p) => p.teamId)).size, ...figures };
  } finally {
    await hello.close();
    await api.close();
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
    + 'account with a live session (JWT signed with the app\'s secret), every connection cycling through all of them; the app\'s clock is '
    + '2025-04-20T10:00Z. Rate limits: none applies to POST /api/entry (rate-limits.ts limits only login, registration and password '
    + 'reset), so the command API ran with its defaults and nothing was switched off. The load generator (autocannon) ran in a worker thread.',
  ];
}

export function httpRows(result: HttpPeersResult): Row[] {
  const hello = median(result.hello.map((r) => r.requestsPerSecond));
  const entry = median(result.entry.map((r) => r.requestsPerSecond));
  const p99 = median(result.entry.map((r) => r.p99));
  const share = entry / hello;
  const refused = result.entry.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const how = `${result.connections} connections, median of ${result.hello.length} × ${result.seconds} s`;
  return [
    {
      measure: `HTTP: Fastify hello world, GET / (${how})`,
      result: `${grouped(hello)} req/s (${spread(result.hello.map((r) => r.requestsPerSecond))})`,
      ratio: '(peer)',
      target: '',
    },
    {
      measure: `HTTP: POST /api/entry end to end (${result.users} participants in ${result.teams} teams; ${refused} non-2xx/errors)`,
      result: `${grouped(entry)} req/s (${spread(result.entry.map((r) => r.requestsPerSecond))})`,
      ratio: `${times(entry, hello)} hello world (${(share * 100).toFixed(1)} %)`,
      target: `≥ ${HTTP_TARGET.shareOfHelloWorld * 100} % of hello world (${verdict(share >= HTTP_TARGET.shareOfHelloWorld)})`,
    },
    {
      measure: 'HTTP: POST /api/entry latency p99',
      result: `${grouped(p99, 1)} ms (${spread(result.entry.map((r) => r.p99), 1)})`,
      ratio: `${times(p99, HTTP_TARGET.p99Ms)} limit (no peer)`,
      target: `≤ ${HTTP_TARGET.p99Ms} ms (${verdict(p99 <= HTTP_TARGET.p99Ms)})`,
    },
  ];
}
