/**
 * a property-based fuzz suite. Thousands of hostile requests — bodies, path
 * parameters, query strings and headers, some as raw bytes no JSON library writes — go to every
 * route of the running application (both APIs, through the gateway over loopback as a browser's
 * would; the few routes outside /api straight to their API), with the real projector behind it.
 *
 * Properties, per family of cases (tests/support/fuzz.ts: guided by the routes' schemas, hostile,
 * raw bytes): every answer is complete within 5 s and none is a 5xx of any kind (nothing
 * restarts here, so not even the gateway's 503); a failure stops the family and prints the
 * shrunk request and the answer, with what the apps logged meanwhile. Over all families: every
 * error answer is `{ message: <catalogue code> }` (ERROR_CODES; collected, so that a malformed
 * refusal never hides a 5xx, and listed by kind with an example each). And the pipeline stays
 * live: half-way and at the end a known event (a member's entry through the API) reaches every
 * projection's checkpoint within 5 s, nothing is parked (GET /api/admin/parked) and no replay
 * failed.
 *
 * The routes are enumerated at run time from the APIs themselves (an onRoute hook), so a new
 * route is fuzzed without editing this file; bodies, queries and path parameters are drawn from
 * each route's own TypeBox schemas and real ids of the seeded data as well as from hostile
 * generators. What an administrator's fuzzed request may legitimately do — delete the member's
 * team, switch entries off, pause queues on the queue board — is put right between batches
 * (ensureActors), never treated as a failure.
 *
 * Knobs (environment): FUZZ_RUNS, the total number of cases (default 2 000; a nightly run sets
 * e.g. FUZZ_RUNS=20000), shared 45/35/20 by the families; FUZZ_SEED, fast-check's seed (printed
 * at the start of every run with the command that replays it); FUZZ_SURVEY=1 collects every 5xx
 * and hang instead of stopping at the first (no shrinking), and prints the answers per route.
 */
import type {} from '@fastify/jwt'; // app.jwt's type (the command API registers the plugin)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { readSettings } from '@sinilill/commands';
import { QUEUE_BOARD_COOKIE, type AccessClaims, type ParkedEventsAnswer, type SessionClaims } from '@sinilill/contracts';
import { ACTIVITY_TYPES, type ActingUser } from '@sinilill/domain';
import { projections, readCheckpoints } from '@sinilill/read-models';
import { sendRaw } from '../support/raw-http';
import {
  caseArbitrary, contractFieldNames, describeRequest, problemWith, toRawRequest,
  type FuzzCase, type FuzzMode, type KnownValues, type Resolved,
} from '../support/fuzz';
import { JWT_SECRET, startRunningApp, type CollectedRoute, type RunningApp } from '../support/running-app';

const NOW = new Date('2025-04-15T09:00:00Z');
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
/** An answer slower than this fails the property ("hang over 5 s"). */
const LIMIT_MS = 5_000;
/**
 * The query API's read-your-writes bound in this suite. A hostile x-min-position beyond the
 * log's head makes every such request wait the whole bound (3 s in production, far under the
 * 5 s limit); kept short here so those cases do not dominate the run's time.
 */
const READ_YOUR_WRITES_MS = 300;

/** A whole number from the environment, or `fallback`; anything else stops the run (a typo must not fuzz 0 cases). */
function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new Error(`${name} must be a whole number, not ${JSON.stringify(raw)}`);
  return Number(raw);
}
const TOTAL_RUNS = Math.max(3, knob('FUZZ_RUNS', 2_000));
const SEED = knob('FUZZ_SEED', Date.now() % 2 ** 31) % 2 ** 31;
/** The share of the runs each family gets. */
const SHARES: Record<FuzzMode, number> = { guided: 0.45, hostile: 0.35, raw: 0.2 };
/** FUZZ_SURVEY=1: collect every 5xx and hang instead of stopping (and shrinking) at the first. */
const SURVEY = process.env.FUZZ_SURVEY === '1';
/** Each family its own seed (one seed would draw the same routes in the same order in each). */
const seedOf = (mode: FuzzMode) => (SEED + Object.keys(SHARES).indexOf(mode)) % 2 ** 31;
const runsOf = (mode: FuzzMode) => Math.max(1, Math.round(TOTAL_RUNS * SHARES[mode]));
/** A test's time bound: generous per case (answers are fast; a few wait the read-your-writes bound), plus shrinking. */
const timeoutFor = (runs: number) => 120_000 + runs * 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fuzz: hostile requests to every route of the running application', () => {
  let running: RunningApp;
  let gatewayUrl: string;
  /** Real ids and names for the generators (filled as the seed is made; new members add theirs). */
  const known: KnownValues = { ints: [], strings: [] };
  let fieldNames: string[];
  let resolved: Resolved;
  let member: SessionClaims;
  let admin: SessionClaims;
  let fixtures = 0;
  let cases = 0;
  const statuses = new Map<string, Map<number, number>>();
  /** Queues found paused (through the queue board) and resumed, by name: how often. */
  const resumed = new Map<string, number>();
  const wall = { started: performance.now(), fuzzMs: 0 };

  const system = (id: string) => ({ actor: SYSTEM, metadata: { commandId: `fuzz-${id}`, correlationId: `fuzz-${id}`, causationId: null } });
  const routeKey = (route: CollectedRoute) => `${route.api.padEnd(7)} ${route.method.padEnd(7)} ${route.url}`;

  /** A call of the test's own (setup, liveness) through the gateway; throws on anything but 2xx. */
  const call = async <T>(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return { json: JSON.parse(text) as T, headers: response.headers };
  };

  /** A team with one captain who has an approved account: the claims of that member. */
  const newMember = async (): Promise<SessionClaims> => {
    const n = ++fixtures;
    const code = `FUZ${'ABCDEFGHJKMNPQRSTUVWXYZ'[n % 23]}${String(234 + n).padStart(4, '2').replace(/[01]/g, '5')}`;
    const { teamId } = await running.commands.registerTeam({ teamName: `Fuzz Team ${n}`, description: '', joinCode: code, icon: null }, system(`team-${n}`));
    const email = `fuzz-member-${n}@example.ee`;
    const { participantId } = await running.commands.registerParticipant({
      teamId, fullName: `Fuzz Member ${n}`, email, birthYear: 1985, gender: 'FEMALE', isCaptain: true, newsletter: false,
    }, system(`member-${n}`));
    const userId = (await running.directory.userIdOfEmail(email))!;
    // Cases drawn after this (the next family's) name the new team and member too.
    known.ints.push(teamId, participantId);
    return { userId, fullName: `Fuzz Member ${n}`, is_approved: true, participantId, teamId, role: 'USER', isPaid: false };
  };

  /** A JWT signed with `secret` (HS256) whose lifetime ended an hour ago. */
  const expiredToken = (claims: object) => new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
    .sign(new TextEncoder().encode(JWT_SECRET));

  /**
   * Puts the actors back where the fuzzing may have taken them: both global switches on, the
   * member alive in a team (an administrator's fuzzed request may have deleted their team), both
   * sessions live; and signs every credential variant afresh.
   */
  const ensureActors = async () => {
    // The queue board (an administrator's cookie) may have paused queues: an operator's choice,
    // not a fault (the sweep still catches up), but the wake-ups and replays should run again.
    for (const queue of running.queues) {
      if (await queue.isPaused()) {
        resumed.set(queue.name, (resumed.get(queue.name) ?? 0) + 1);
        await queue.resume();
      }
    }
    const settings = await readSettings(running.store);
    const adminToken = () => running.commandApi.jwt.sign(running.sessions.access(admin));
    await running.sessions.enrol(admin);
    if (!settings.entryInsertionEnabled || !settings.registrationEnabled) {
      await call('PUT', '/api/admin/settings', adminToken(), { entryInsertionEnabled: true, registrationEnabled: true });
    }
    const account = await running.accounts.account(member.userId);
    const actor = await running.commands.resolveActor({ userId: member.userId, role: 'USER', participantId: member.participantId, teamId: member.teamId });
    if (!account.exists || account.deleted || !account.approved || actor.teamId !== member.teamId) member = await newMember();
    await running.sessions.enrol(member);
    const memberAccess = running.sessions.access(member);
    // The forged variants break the claims' types on purpose.
    const sign = (claims: object) => running.commandApi.jwt.sign(claims as AccessClaims);
    const board = await fetch(`${gatewayUrl}/api/admin/queues/session`, { method: 'POST', headers: { authorization: `Bearer ${adminToken()}` } });
    expect(board.status).toBe(200);
    const boardCookie = /sinilill_queues=([^;]+)/.exec(board.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(board.headers.get('set-cookie')).toContain(QUEUE_BOARD_COOKIE);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    resolved = {
      member: sign(memberAccess),
      admin: adminToken(),
      expired: await expiredToken(memberAccess),
      foreignSecret: await new SignJWT({ ...running.sessions.access(admin) }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m')
        .sign(new TextEncoder().encode('another-secret-that-is-long-enough-0123456789')),
      algNone: `${header}.${Buffer.from(JSON.stringify(running.sessions.access(admin))).toString('base64url')}.`,
      unknownSession: sign({ ...memberAccess, sid: 'no-such-session' }),
      forgedRole: sign({ ...memberAccess, role: 'ADMIN' }),
      boardToken: boardCookie,
      refreshCookie: (await running.accounts.renewSession(member.userId)).refreshToken,
      boardCookie,
      head: await running.store.headPosition(),
    };
  };

  /** Sends one case and fails with the request, the answer and the server's error log when it breaks a property. */
  const runCase = async (c: FuzzCase) => {
    cases += 1;
    if (cases % 100 === 0) await ensureActors();
    if (['head', 'past', 'future'].includes(c.minPosition.kind)) resolved.head = await running.store.headPosition();
    const request = toRawRequest(c, resolved);
    const throughGateway = c.route.url.startsWith('/api/');
    const port = throughGateway ? running.ports.gateway : running.ports[c.route.api];
    const logged = running.problems.length;
    const response = await sendRaw('127.0.0.1', port, request, LIMIT_MS);
    const byStatus = statuses.get(routeKey(c.route)) ?? new Map<number, number>();
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    statuses.set(routeKey(c.route), byStatus);
    // The payment sandbox's checkout is the test bank's page in the payer's browser: it refuses an invalid session with a page (docs/decisions/0018).
    // The queue board is Bull Board's own UI and API (docs/decisions/0017, operators only): its 4xx keep the shape
    // its UI reads ({ error: { key } }); a 5xx or a hang there still fails.
    const problem = problemWith(request, response, LIMIT_MS, {
      pages: c.route.url.startsWith('/api/payment/sandbox/'),
      ownErrorShape: c.route.url.startsWith('/api/admin/queues'),
    });
    if (problem === null) return;
    // What the apps logged meanwhile at warn and above (the gateway warns with the upstream's error).
    const logs = running.problems.slice(logged).map((p) => `[${p.source}] ${p.line.slice(0, 2000)}`);
    const report = [
      problem.detail,
      `sent to ${throughGateway ? 'the gateway' : `the ${c.route.api} API`} (route ${c.route.api} ${c.route.method} ${c.route.url}):`,
      describeRequest(request),
      `answer: ${response.status} after ${Math.round(response.ms)} ms, ${JSON.stringify(response.headers).slice(0, 500)}`,
      ...(logs.length > 0 ? ['logged meanwhile:', ...logs] : []),
    ].join('\n');
    if (!problem.fatal) {
      // Not a property of its own per case: collected for the catalogue test, so that these never hide a 5xx.
      remember(offCatalogue, problem.kind, `${c.route.api} ${c.route.method} ${c.route.url}`, report);
      return;
    }
    if (!SURVEY) throw new Error(report);
    remember(survey, `${problem.kind} | ${c.route.api} ${c.route.method} ${c.route.url}`, `${c.route.api} ${c.route.method} ${c.route.url}`, report);
  };

  /** Failing answers by kind: how many, on which routes, the first one in full. */
  type Findings = Map<string, { count: number; routes: Set<string>; example: string }>;
  const remember = (findings: Findings, kind: string, route: string, report: string) => {
    const seen = findings.get(kind);
    if (seen) {
      seen.count += 1;
      seen.routes.add(route);
    } else {
      findings.set(kind, { count: 1, routes: new Set([route]), example: report });
    }
  };
  const listed = (findings: Findings) => [...findings.entries()].sort(([, a], [, b]) => b.count - a.count)
    .map(([kind, { count, routes, example }]) => `${count}× ${kind} (${routes.size} routes)\n${example}`).join('\n\n');
  /** Error answers without a catalogue code, over every family. */
  const offCatalogue: Findings = new Map();
  /** FUZZ_SURVEY=1: every 5xx or hang is collected (no shrinking), and the family fails at its end with all of them, grouped. */
  const survey: Findings = new Map();
  const fuzz = async (mode: FuzzMode) => {
    survey.clear();
    const routes = running.routes;
    const started = performance.now();
    const before = cases;
    await ensureActors();
    try {
      await fc.assert(fc.asyncProperty(caseArbitrary(routes, mode, known, fieldNames), runCase), {
        seed: seedOf(mode), numRuns: runsOf(mode), interruptAfterTimeLimit: timeoutFor(runsOf(mode)) - 30_000, markInterruptAsFailure: true,
      });
    } finally {
      const ms = performance.now() - started;
      wall.fuzzMs += ms;
      console.log(`fuzz [${mode}]: ${cases - before} cases (seed ${seedOf(mode)}) in ${(ms / 1000).toFixed(1)} s`);
    }
    if (survey.size > 0) throw new Error(`${survey.size} kinds of 5xx or hangs in the ${mode} family:\n\n${listed(survey)}`);
  };

  /** Waits until no replay waits or runs (a fuzzed POST /api/admin/replay may have started one). */
  const replaysSettled = async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const counts = await running.replayQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > deadline) throw new Error(`a replay is still waiting or running after 60 s: ${JSON.stringify(counts)}`);
      await sleep(100);
    }
  };

  /**
   * The pipeline is live: a member's entry through the API reaches every projection's checkpoint
   * (and the log's head) within 5 s; nothing is parked; no replay failed.
   */
  const assertPipelineLive = async (label: string) => {
    await ensureActors();
    await replaysSettled();
    const { json: added } = await call<{ position: number }>('POST', '/api/entry', resolved.member, { distance: 1.23, entry_type: 'WALK', performed_at: '2025-04-14' });
    const head = await running.store.headPosition();
    expect(head).toBeGreaterThanOrEqual(added.position);
    const deadline = Date.now() + 5_000;
    let checkpoints: Record<string, number> = {};
    for (;;) {
      checkpoints = await readCheckpoints(running.app.db);
      const behind = projections.filter((p) => (checkpoints[p.name] ?? 0) < head);
      if (behind.length === 0) break;
      if (Date.now() > deadline) {
        throw new Error(`${label}: projections stopped advancing: head ${head}, checkpoints ${JSON.stringify(checkpoints)}; behind: ${behind.map((p) => p.name).join(', ')}`);
      }
      await sleep(50);
    }
    const { json: parked } = await call<ParkedEventsAnswer>('GET', '/api/admin/parked', resolved.admin, undefined, { 'x-min-position': String(head) });
    if (parked.events.length > 0 || parked.counts.some((c) => c.parked > 0)) {
      throw new Error(`${label}: events were parked by the projections:\n${JSON.stringify(parked, null, 2).slice(0, 10_000)}`);
    }
    const failed = await running.replayQueue.getFailed();
    if (failed.length > 0) throw new Error(`${label}: replays failed: ${failed.map((job) => `${job.id}: ${job.failedReason}`).join('; ')}`);
    console.log(`fuzz: pipeline live ${label}: head ${head}, every checkpoint there, nothing parked`);
  };

  beforeAll(async () => {
    console.log(`fuzz: seed ${SEED}, ${TOTAL_RUNS} cases (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${TOTAL_RUNS} npx vitest run --project int tests/int/fuzz.int.test.ts)`);
    running = await startRunningApp({ now: () => NOW, readYourWritesTimeoutMs: READ_YOUR_WRITES_MS, sweepIntervalMs: 1_000 });
    gatewayUrl = `http://127.0.0.1:${running.ports.gateway}`;
    fieldNames = contractFieldNames();

    // The seed: two teams, the member and two others with accounts, entries, a team icon, the administrator.
    member = await newMember();
    admin = { userId: 'a0f1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', fullName: 'Fuzz Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false };
    await running.sessions.enrol(admin, member);
    const other = await newMember();
    const { participantId: teammate } = await running.commands.registerParticipant({
      teamId: member.teamId!, fullName: 'Fuzz Teammate', email: 'fuzz-teammate@example.ee', birthYear: 2015, gender: 'MALE', isCaptain: false, newsletter: true,
    }, system('teammate'));
    await ensureActors();
    const entries: number[] = [];
    for (const distance of [4.25, 12.6]) {
      entries.push((await call<{ entry: { id: number } }>('POST', '/api/entry', resolved.member, { distance, entry_type: 'WALK', performed_at: '2025-04-14' })).json.entry.id);
    }
    for (const participant of [teammate, other.participantId!]) {
      entries.push((await call<{ entry: { id: number } }>('POST', '/api/entry', resolved.admin, { distance: 3, entry_type: 'RUN', performed_at: '2025-04-13', participant_id: participant })).json.entry.id);
    }
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#2255ee' } }).png().toBuffer();
    const { json: changed } = await call<{ team: { icon: string | null } }>('PUT', `/api/team/${member.teamId}/publicattributes`, resolved.member, {
      description: 'Fuzz', icon: `data:image/png;base64,${png.toString('base64')}`,
    });
    const image = changed.team.icon?.split('/').pop();
    const head = await running.store.headPosition();
    // Real things for the path parameters and the body's id fields (never the actors' own user ids:
    // an administrator's fuzzed request would delete them on the first run).
    const otherUser = (await running.directory.userIdOfEmail('fuzz-member-2@example.ee'))!;
    const teammateUser = (await running.directory.userIdOfEmail('fuzz-teammate@example.ee'))!;
    known.ints.push(teammate, ...entries, head, Math.max(1, head - 3), 1);
    known.strings.push(
      otherUser, teammateUser, ...(image ? [image] : []), 'sandbox', 'montonio', 'team', 'user', 'entry', 'team-stats', 'team-directory',
      'admin-directory', 'payments', 'settings', `team-${member.teamId}`, `participant-${other.participantId}`, 'EntryAdded', 'TeamRegistered',
      'fuzz-member-2@example.ee', 'EE', 'FI', 'swedbank', 'swedbank.svg', 'all', 'open', 'ndjson', 'csv',
      ...running.queues.map((queue) => queue.name), 'completed', 'failed', 'waiting', 'active', 'delayed', 'paused',
      ...ACTIVITY_TYPES, '2025-04-14', '2025-04-01', '2025-04-30', '2025-05-01',
    );
  }, 180_000);

  afterAll(async () => {
    const rows = [...statuses.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([route, byStatus]) => `  ${route}  ${[...byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    const answered = [...statuses.values()].filter((byStatus) => [...byStatus.keys()].some((status) => status >= 200 && status < 400)).length;
    console.log(`fuzz: ${statuses.size} of ${running?.routes.length ?? 0} routes drawn, ${answered} of them answered 2xx or 3xx at least once`);
    if (SURVEY && rows.length > 0) console.log(`fuzz: answers per route (status×count):\n${rows.join('\n')}`);
    if (resumed.size > 0) console.log(`fuzz: queues paused through the queue board and resumed: ${JSON.stringify(Object.fromEntries(resumed))}`);
    const errors = running?.problems.filter((p) => p.level >= 50) ?? [];
    if (errors.length > 0) console.log(`fuzz: the apps logged ${errors.length} errors, e.g.:\n${errors.slice(0, 5).map((p) => `  [${p.source}] ${p.line.slice(0, 600)}`).join('\n')}`);
    console.log(`fuzz: ${cases} cases sent in ${(wall.fuzzMs / 1000).toFixed(1)} s of fuzzing, ${((performance.now() - wall.started) / 1000).toFixed(1)} s in all (seed ${SEED})`);
    await running?.close();
  }, 60_000);

  test('every route of both APIs is enumerated from the running apps', () => {
    const byApi = (api: CollectedRoute['api']) => running.routes.filter((r) => r.api === api);
    expect(byApi('command').length).toBeGreaterThan(0);
    expect(byApi('query').length).toBeGreaterThan(0);
    // Spot checks that the enumeration sees routes of every plugin kind (commands, reads, the board).
    const urls = running.routes.map((r) => `${r.api} ${r.method} ${r.url}`);
    expect(urls).toEqual(expect.arrayContaining([
      'command POST /api/entry', 'command PUT /api/admin/settings', 'query GET /api/team/:id', 'query GET /api/admin/history',
      'command GET /health/live', 'query GET /health/ready',
    ]));
    expect(urls.some((u) => u.startsWith('command GET /api/admin/queues'))).toBe(true);
    console.log(`fuzz: ${running.routes.length} routes: ${byApi('command').length} of the command API, ${byApi('query').length} of the query API`);
  });

  test('guided by the routes\' schemas (valid or one field hostile, real ids, real tokens): no 5xx, every answer within 5 s', async () => {
    await fuzz('guided');
  }, timeoutFor(runsOf('guided')));

  test('the pipeline is live half-way: a new event reaches every checkpoint, nothing parked', async () => {
    await assertPipelineLive('half-way');
  }, 90_000);

  test('hostile bodies, paths, query strings and headers: no 5xx, every answer within 5 s', async () => {
    await fuzz('hostile');
  }, timeoutFor(runsOf('hostile')));

  test('raw bytes (invalid UTF-8, truncated JSON, deep nesting, oversized, chunked, odd methods): no 5xx, every answer within 5 s', async () => {
    await fuzz('raw');
  }, timeoutFor(runsOf('raw')));

  test('every error answer of every family is { message: <catalogue code> }', () => {
    if (offCatalogue.size > 0) {
      throw new Error(`${offCatalogue.size} kinds of error answers without a catalogue code (spec §8):\n\n${listed(offCatalogue)}`);
    }
  });

  test('the pipeline is live after the fuzzing: a new event reaches every checkpoint, nothing parked', async () => {
    await assertPipelineLive('at the end');
  }, 90_000);
});
