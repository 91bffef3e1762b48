/**
 * Many processes of each kind: two command APIs, two query APIs and three
 * projectors as real processes (`node --import tsx services/<name>/src/server.ts`) on one
 * PostgreSQL database and one Redis, with a gateway process over both API lists
 * (COMMAND_API_URLS, QUERY_API_URLS).
 *
 * CLIENTS clients (each a participant with a session) send COMMANDS commands between them — mostly
 * POST /api/entry, some edits and deletions of their own entries, each with its own
 * Idempotency-Key — half of them through the gateway, half straight to their home command API
 * (going to the other one for 2 s after a failure), with a read now and then. Meanwhile every
 * 2–3 s a process is killed with SIGKILL and started again: the kinds in turn (a command API, a
 * projector, a query API), a random one of the kind, never the last ready one of its kind. A
 * client retries a command that got no answer or a 5xx with the same key until it is answered.
 *
 * Then, with every process up again:
 * - every command answered 2xx is in the log exactly once (its events found by their command id,
 *   `<userId>:<key>`); a command never answered is there at most once; no entry id twice;
 * - an erasure (an administrator deletes a person through command API 1) is seen at once by the
 *   other query API (the history shows the name as null in the very next request) and heard by
 *   command API 2 and every projector (their erasure listener's log line) well within a second,
 *   not after the 60 s key cache;
 * - the projectors catch up, and the read models equal a replay from zero (every table's checksum).
 *
 * The numbers (commands/s, kills, retries, recovery times, erasure latencies) are printed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { prng } from '@sinilill/cli';
import type { CommandRequest } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import type { SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { freePortBlock } from '@sinilill/local-infra';
import { projections, readCheckpoints, rebuildReadModels } from '@sinilill/read-models';
import { spawnService, waitForOk, type ServiceProcess } from '../support/service-process';
import { testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

/** Commands sent in all (adds, edits, deletions), by CLIENTS clients at once (MANY_COMMANDS overrides it for a quick local run). */
const COMMANDS = Number(process.env.MANY_COMMANDS ?? 5_000);
const CLIENTS = 32;
/** A random process is killed every KILL_EVERY_MS.min … max while the commands run. */
const KILL_EVERY_MS = { min: 2_000, max: 3_000 };
/** A client gives a command up after retrying it this long (it then counts as unanswered). */
const GIVE_UP_AFTER_MS = 30_000;
/** An erasure must be heard by every other process within this bound (the key cache's TTL is 60 s). */
const ERASURE_BOUND_MS = 1_000;

const SECRET = 'many-processes-jwt-secret-0123456789-0123456789';
const EMAIL_INDEX_SECRET = 'many-processes-email-index-secret-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const TEAMS = 8;
const run = randomUUID().slice(0, 8);
const dataDir = mkdtempSync(join(repoRoot, '.tmp-many-'));

type Kind = 'command-api' | 'query-api' | 'projector';
const FILES: Record<Kind, string> = {
  'command-api': 'services/command-api/src/server.ts',
  'query-api': 'services/query-api/src/server.ts',
  projector: 'services/projector/src/server.ts',
};

interface Service {
  name: string;
  kind: Kind;
  env: NodeJS.ProcessEnv;
  /** Base URL of an API (its readiness is GET /health/ready); null for a projector (its 'ready' log line). */
  url: string | null;
  current: ServiceProcess;
  ready: boolean;
  starts: number;
}

interface Person {
  claims: SessionClaims;
  participantId: number;
  teamId: number;
  token: string;
}

let app: TestApplication;
let sessions: TestSessions;
const services: Service[] = [];
let gateway: ServiceProcess | null = null;
/** Every failed attempt of the clients, by error code or status (ECONNRESET: lost mid-request). */
const failures = new Map<string, number>();


const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const system = (id: string): CommandRequest => ({ actor: SYSTEM, metadata: { commandId: `${run}-${id}`, correlationId: `${run}-${id}`, causationId: null } });
const userIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function tokenFor(claims: SessionClaims): Promise<string> {
  return new SignJWT({ ...sessions.access(claims) }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

/** Starts (or starts again) `service`'s process; `ready` turns true once it answers. */
function launch(service: Service): void {
  const child = spawnService(FILES[service.kind], service.env);
  service.current = child;
  service.ready = false;
  service.starts += 1;
  void untilReady(service, child).then(() => {
    if (service.current === child) service.ready = true;
  }, () => undefined); // a process killed before it was ready
}

/** Resolves when this process of `service` is ready. @throws when it exits first or takes over 60 s. */
async function untilReady(service: Service, child: ServiceProcess): Promise<void> {
  if (service.url) return waitForOk(`${service.url}/health/ready`, child, 60_000);
  const deadline = Date.now() + 60_000;
  let exited = false;
  void child.exited.then(() => { exited = true; });
  // The projector's 'ready' line (pino's `msg`, or `message` in its older format).
  const isReady = () => child.logLines().some((line) => (line.msg ?? line.message) === 'ready');
  while (!isReady()) {
    if (exited) throw new Error(`${service.name} exited before it was ready:\n${child.output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${service.name} not ready in 60 s:\n${child.output().slice(-3000)}`);
    await sleep(50);
  }
}

const allReady = async (timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!services.every((s) => s.ready)) {
    if (Date.now() > deadline) {
      const late = services.filter((s) => !s.ready);
      throw new Error(`not ready: ${late.map((s) => `${s.name}:\n${s.current.output().slice(-1500)}`).join('\n')}`);
    }
    await sleep(50);
  }
};

/** What a client learned of one command. */
interface Outcome {
  key: string;
  userId: string;
  op: 'add' | 'edit' | 'delete';
  /** The final status; null when it was never answered (given up). */
  status: number | null;
  attempts: number;
  entryId: number | null;
  /** The answer of a 4xx (for the report). */
  body?: string;
}

/**
 * Sends one request until it is answered with something other than a 5xx, switching among
 * `bases` (round-robin from index `first`) after each failure: the same Idempotency-Key every
 * time. `answeredBy`: the index of the base that answered (the client sticks to it).
 */
async function sendUntilAnswered(
  bases: readonly string[], first: number, path: string, init: { method: string; token: string; key?: string; body?: unknown; minPosition?: number },
): Promise<{ status: number | null; body: unknown; text: string; attempts: number; lastError: string | null; answeredBy: number }> {
  const started = Date.now();
  let attempts = 0;
  let lastError: string | null = null;
  for (let target = first; ; target++) {
    attempts += 1;
    const base = bases[target % bases.length]!;
    try {
      const response = await fetch(`${base}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${init.token}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.key ? { 'idempotency-key': init.key, 'x-correlation-id': init.key } : {}),
          ...(init.minPosition ? { 'x-min-position': String(init.minPosition) } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      if (response.status < 500) {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
        return { status: response.status, body, text, attempts, lastError, answeredBy: target % bases.length };
      }
      lastError = `${response.status} ${text.slice(0, 100)}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      lastError = cause?.code ?? cause?.message ?? String(error);
    }
    failures.set(lastError.split(' ')[0]!, (failures.get(lastError.split(' ')[0]!) ?? 0) + 1);
    if (Date.now() - started > GIVE_UP_AFTER_MS) return { status: null, body: null, text: '', attempts, lastError, answeredBy: first };
    await sleep(Math.min(500, 25 * attempts));
  }
}

beforeAll(async () => {
  app = await testApplication({ now: () => new Date('2025-04-20T09:00:00Z') });
  sessions = testSessions(app);
}, 120_000);

afterAll(async () => {
  await Promise.all([...services.map((s) => s.current.kill()), gateway?.kill()]);
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test(`${COMMANDS} commands from ${CLIENTS} clients over 2 command APIs, 2 query APIs and 3 projectors killed at random`, async () => {
  const setupStarted = performance.now();
  // ── The people: CLIENTS participants in TEAMS teams, a person to erase, an administrator.
  for (let team = 1; team <= TEAMS; team++) {
    await app.commands.registerTeam({ teamId: team, teamName: `Tiim ${team} ${run}`, description: '', joinCode: `MANY${team}AB`, icon: null }, system(`team-${team}`));
  }
  const register = async (participantId: number, teamId: number, fullName: string) => {
    await app.commands.registerParticipant({
      participantId, teamId, fullName, email: `p${participantId}-${run}@example.ee`, birthYear: 1980,
      gender: 'FEMALE', isCaptain: false, newsletter: false,
    }, system(`participant-${participantId}`));
    const claims: SessionClaims = {
      userId: userIdOf(participantId), fullName, is_approved: true, participantId, teamId, role: 'USER', isPaid: true,
    };
    await sessions.enrol(claims);
    return { claims, participantId, teamId, token: await tokenFor(claims) } satisfies Person;
  };
  const people: Person[] = [];
  for (let i = 0; i < CLIENTS; i++) people.push(await register(i + 1, (i % TEAMS) + 1, `Osaleja ${i + 1}`));
  const VICTIM_NAME = 'Viktoria Kustutatav';
  const victim = await register(CLIENTS + 1, 1, VICTIM_NAME);
  const adminClaims: SessionClaims = {
    userId: userIdOf(900_000), fullName: 'Admin Ninja', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false,
  };
  await sessions.enrol(adminClaims);
  const adminToken = await tokenFor(adminClaims);

  // ── The processes.
  const base = await freePortBlock(8);
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const ports = { gateway: base, command: [base + 1, base + 2], query: [base + 3, base + 4], projector: [base + 5, base + 6, base + 7] };
  const common: NodeJS.ProcessEnv = {
    DATABASE_URL: app.url,
    REDIS_URL: inject('redisUrl'),
    BULLMQ_PREFIX: `many${run}`,
    JWT_SECRET: SECRET,
    EMAIL_INDEX_SECRET,
    HOST: '127.0.0.1',
    PORT: String(ports.gateway),
    COMMAND_API_URLS: ports.command.map(url).join(','),
    QUERY_API_URLS: ports.query.map(url).join(','),
    DATA_DIR: dataDir,
    CLOCK: 'simulated',
    CLOCK_START: '2025-04-20T10:00:00Z',
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    SWEEP_INTERVAL_MS: '1000',
  };
  const add = (name: string, kind: Kind, env: NodeJS.ProcessEnv, apiUrl: string | null) => {
    const service: Service = { name, kind, env: { ...common, ...env }, url: apiUrl, current: null as unknown as ServiceProcess, ready: false, starts: 0 };
    services.push(service);
    launch(service);
    return service;
  };
  const commandApis = ports.command.map((port, i) => add(`command-api-${i + 1}`, 'command-api', { COMMAND_API_PORT: String(port) }, url(port)));
  // The query APIs log warnings only: their per-request lines would cost CPU the test has none of.
  const queryApis = ports.query.map((port, i) => add(`query-api-${i + 1}`, 'query-api', { QUERY_API_PORT: String(port), LOG_LEVEL: 'warn' }, url(port)));
  const projectors = ports.projector.map((port, i) => add(`projector-${i + 1}`, 'projector', { PROJECTOR_PORT: String(port) }, null));
  gateway = spawnService('services/gateway/src/server.ts', { ...common, LOG_LEVEL: 'warn' });
  await waitForOk(`${url(ports.gateway)}/health/ready`, gateway, 90_000);
  await allReady();
  const setupMs = performance.now() - setupStarted;

  // ── The chaos: a random process killed with SIGKILL every 2–3 s, started again at once.
  const random = prng(17_011);
  const kills: { name: string; at: number; readyAfterMs: number | null }[] = [];
  let loading = true;
  let skippedKills = 0;
  const KILL_ORDER: readonly Kind[] = ['command-api', 'projector', 'query-api'];
  let turn = 0;
  const chaos = (async () => {
    while (loading) {
      await sleep(KILL_EVERY_MS.min + random() * (KILL_EVERY_MS.max - KILL_EVERY_MS.min));
      if (!loading) break;
      // Never the last ready one of its kind: the site stays up, only each process comes and goes.
      const candidates = services.filter((s) => s.ready && services.some((o) => o !== s && o.kind === s.kind && o.ready));
      if (candidates.length === 0) {
        skippedKills += 1;
        continue;
      }
      // The kinds in turn, then a random process of the kind: every third kill is a command API's.
      const kind = KILL_ORDER.map((_, step) => KILL_ORDER[(turn + step) % KILL_ORDER.length]!).find((k) => candidates.some((s) => s.kind === k))!;
      turn = (KILL_ORDER.indexOf(kind) + 1) % KILL_ORDER.length;
      const ofKind = candidates.filter((s) => s.kind === kind);
      const victimService = ofKind[Math.floor(random() * ofKind.length)]!;
      const kill = { name: victimService.name, at: performance.now(), readyAfterMs: null as number | null };
      kills.push(kill);
      await victimService.current.kill();
      launch(victimService);
      const restarted = victimService.current;
      void untilReady(victimService, restarted).then(() => { kill.readyAfterMs = performance.now() - kill.at; }, () => undefined);
    }
  })();

  // ── The clients.
  const gatewayUrl = url(ports.gateway);
  const outcomes: Outcome[] = [];
  let issued = 0;
  let reads = 0;
  let readFailures = 0;
  const loadStarted = performance.now();
  await Promise.all(people.map(async (person, i) => {
    const rnd = prng(1_000 + i);
    const throughGateway = i % 2 === 0;
    const commandBases = throughGateway ? [gatewayUrl] : commandApis.map((s) => s.url!);
    const queryBases = throughGateway ? [gatewayUrl] : queryApis.map((s) => s.url!);
    const mine: number[] = [];
    let n = 0;
    // A direct client has a home command API (half of them each: i is odd for them); when home
    // fails it goes to the other and stays there for 2 s before it tries home again.
    const home = Math.floor(i / 2) % commandBases.length;
    let awayUntil = 0;
    while (issued < COMMANDS) {
      issued += 1;
      n += 1;
      const key = `many-${run}-${i}-${n}`;
      const roll = rnd();
      const op: Outcome['op'] = mine.length > 3 && roll < 0.06 ? 'delete' : mine.length > 0 && roll < 0.2 ? 'edit' : 'add';
      const day = `2025-04-${String(1 + Math.floor(rnd() * 20)).padStart(2, '0')}`;
      const entry = { distance: (1 + Math.floor(rnd() * 2000)) / 100, entry_type: 'WALK', performed_at: day };
      const first = Date.now() < awayUntil ? home + 1 : home;
      let answer;
      let entryId: number | null = null;
      if (op === 'add') {
        answer = await sendUntilAnswered(commandBases, first, '/api/entry', { method: 'POST', token: person.token, key, body: entry });
        entryId = (answer.body as { entry?: { id?: number } } | null)?.entry?.id ?? null;
        if (answer.status === 200 && entryId !== null) mine.push(entryId);
      } else if (op === 'edit') {
        entryId = mine[Math.floor(rnd() * mine.length)]!;
        answer = await sendUntilAnswered(commandBases, first, `/api/entry/${entryId}/edit`, { method: 'PUT', token: person.token, key, body: entry });
      } else {
        const index = Math.floor(rnd() * mine.length);
        entryId = mine[index]!;
        answer = await sendUntilAnswered(commandBases, first, '/api/entry/delete', { method: 'PUT', token: person.token, key, body: { ids: [entryId] } });
        if (answer.status === 200) mine.splice(index, 1);
      }
      if (answer.answeredBy !== home) awayUntil = Date.now() + 2_000;
      outcomes.push({
        key, userId: person.claims.userId, op, status: answer.status, attempts: answer.attempts, entryId,
        ...(answer.status !== 200 ? { body: `${answer.text.slice(0, 200)} (last error: ${answer.lastError})` } : {}),
      });
      if (n % 10 === 0) {
        reads += 1;
        const read = await sendUntilAnswered(queryBases, i + n, `/api/team/${person.teamId}/entries`, { method: 'GET', token: person.token });
        if (read.status !== 200) readFailures += 1;
      }
    }
  }));
  const loadMs = performance.now() - loadStarted;
  loading = false;
  await chaos;
  await allReady();

  // ── The numbers.
  const ok = outcomes.filter((o) => o.status === 200);
  const retried = outcomes.filter((o) => o.attempts > 1);
  const recoveries = kills.map((k) => k.readyAfterMs).filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
  const killedBy = new Map<string, number>();
  for (const kill of kills) killedBy.set(kill.name, (killedBy.get(kill.name) ?? 0) + 1);
  console.log([
    `many processes: setup ${(setupMs / 1000).toFixed(1)} s (7 services + gateway started, ${people.length + 2} accounts)`,
    `${outcomes.length} commands (${outcomes.filter((o) => o.op === 'add').length} adds, ${outcomes.filter((o) => o.op === 'edit').length} edits, ` +
      `${outcomes.filter((o) => o.op === 'delete').length} deletions) from ${CLIENTS} clients in ${(loadMs / 1000).toFixed(1)} s: ` +
      `${Math.round(ok.length / (loadMs / 1000))} answered commands/s; ${reads} reads (${readFailures} failed)`,
    `kills: ${kills.length}, ${skippedKills} skipped (${[...killedBy].map(([name, count]) => `${name} ${count}`).join(', ')}); ` +
      `back ready after a median ${recoveries.length ? (recoveries[Math.floor(recoveries.length / 2)]! / 1000).toFixed(1) : '-'} s ` +
      `(max ${recoveries.length ? (recoveries.at(-1)! / 1000).toFixed(1) : '-'} s)`,
    `retried commands: ${retried.length} (${outcomes.reduce((sum, o) => sum + o.attempts - 1, 0)} retries by the clients, ` +
      `${gateway.output().split('upstream failed; sending the request to the next').length - 1} resends by the gateway; ` +
      `failed attempts by cause: ${[...failures].map(([cause, count]) => `${cause} ${count}`).join(', ') || 'none'}); ` +
      `answered 2xx: ${ok.length}; unanswered: ${outcomes.filter((o) => o.status === null).length}; ` +
      `refused 4xx: ${outcomes.filter((o) => o.status !== null && o.status !== 200).length}`,
  ].join('\n'));
  const refusals = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.status !== 200)) refusals.set(`${o.op} ${o.status} ${o.body?.slice(0, 80)}`, (refusals.get(`${o.op} ${o.status} ${o.body?.slice(0, 80)}`) ?? 0) + 1);
  if (refusals.size > 0) console.log(`refusals: ${JSON.stringify([...refusals].slice(0, 10))}`);
  expect(outcomes).toHaveLength(COMMANDS);
  // A kill is skipped while no process could go without leaving its kind without a ready one.
  expect(kills.length).toBeGreaterThanOrEqual(Math.max(2, Math.floor(loadMs / (4 * KILL_EVERY_MS.max))));
  expect(outcomes.filter((o) => o.status !== 200), JSON.stringify(outcomes.filter((o) => o.status !== 200).slice(0, 5))).toEqual([]);

  // ── Every command answered 2xx is in the log exactly once; the others at most once.
  const { rows } = await app.pool.query<{ command_id: string; type: string; events: string; entry_ids: number[] }>(
    `SELECT metadata->>'commandId' AS command_id, type, count(*) AS events, array_agg((data->>'entryId')::int) AS entry_ids
     FROM es.events WHERE type IN ('EntryAdded', 'EntryEdited', 'EntryDeleted') AND metadata->>'commandId' LIKE $1
     GROUP BY 1, 2`,
    [`%:many-${run}-%`],
  );
  const byCommand = new Map<string, { type: string; events: number; entryIds: number[] }[]>();
  for (const row of rows) {
    byCommand.set(row.command_id, [...(byCommand.get(row.command_id) ?? []), { type: row.type, events: Number(row.events), entryIds: row.entry_ids }]);
  }
  const typeOf = { add: 'EntryAdded', edit: 'EntryEdited', delete: 'EntryDeleted' } as const;
  const sent = new Set(outcomes.map((o) => `${o.userId}:${o.key}`));
  expect([...byCommand.keys()].filter((id) => !sent.has(id))).toEqual([]);
  const wrong: string[] = [];
  for (const outcome of outcomes) {
    const found = byCommand.get(`${outcome.userId}:${outcome.key}`) ?? [];
    const total = found.reduce((sum, f) => sum + f.events, 0);
    if (outcome.status === 200) {
      if (total !== 1 || found[0]!.type !== typeOf[outcome.op] || found[0]!.entryIds[0] !== outcome.entryId) {
        wrong.push(`${outcome.key} (${outcome.op}): ${JSON.stringify(found)}`);
      }
    } else if (total > 1) {
      wrong.push(`${outcome.key} (${outcome.op}, unanswered): ${JSON.stringify(found)}`);
    }
  }
  expect(wrong.slice(0, 10)).toEqual([]);
  const added = rows.filter((r) => r.type === 'EntryAdded').flatMap((r) => r.entry_ids);
  expect(new Set(added).size).toBe(added.length);

  // ── An erasure through command API 1 is seen by the other processes at once.
  // The person adds an entry through each command API, so that both have their key cached.
  for (const [index, api] of commandApis.entries()) {
    const answer = await sendUntilAnswered([api.url!], 0, '/api/entry', {
      method: 'POST', token: victim.token, key: `many-${run}-victim-${index}`, body: { distance: 1, entry_type: 'WALK', performed_at: '2025-04-20' },
    });
    expect(answer.status).toBe(200);
  }
  const history = async (api: Service) => sendUntilAnswered([api.url!], 0, `/api/admin/history?stream=participant-${victim.participantId}`, { method: 'GET', token: adminToken });
  expect((await history(queryApis[1]!)).text).toContain(VICTIM_NAME);
  const deletion = await sendUntilAnswered([commandApis[0]!.url!], 0, '/api/admin/deleteentities/user', {
    method: 'PUT', token: adminToken, key: `many-${run}-erase`, body: { ids: [victim.claims.userId] },
  });
  const answeredAt = Date.now();
  expect(deletion.status, deletion.text).toBe(200);
  // The other query API's very next answer: the history holds the events, the name reads null.
  const after = await history(queryApis[1]!);
  expect(after.status).toBe(200);
  expect(after.text).toContain('ParticipantRegistered');
  expect(after.text).not.toContain(VICTIM_NAME);
  // Command API 2, the projectors (and command API 1 itself) heard it: their listener's log line.
  const subject = `participant-${victim.participantId}`;
  const heardAt = (service: Service): number | null => {
    for (const text of service.current.output().split('\n')) {
      if (!text.includes('personal-data erasure heard')) continue;
      const line = JSON.parse(text) as { subject?: string; time?: number | string };
      if (line.subject === subject) return typeof line.time === 'number' ? line.time : Date.parse(String(line.time));
    }
    return null;
  };
  const listeners = [...commandApis, ...projectors];
  const waitedUntil = Date.now() + ERASURE_BOUND_MS;
  while (listeners.some((s) => heardAt(s) === null) && Date.now() < waitedUntil) await sleep(10);
  const latencies = listeners.map((s) => ({ name: s.name, ms: heardAt(s) === null ? null : heardAt(s)! - answeredAt }));
  console.log(`erasure heard, ms after command API 1 answered (negative: before): ${latencies.map((l) => `${l.name} ${l.ms}`).join(', ')}`);
  for (const latency of latencies) {
    expect(latency.ms, `${latency.name} did not hear the erasure`).not.toBeNull();
    expect(latency.ms!).toBeLessThan(ERASURE_BOUND_MS);
  }
  // The read side: the person is gone from their team once the deletion is projected (asked with
  // x-min-position; again should the wait's 3 s bound pass on a loaded machine).
  const position = (deletion.body as { position: number }).position;
  let members = await sendUntilAnswered([queryApis[1]!.url!], 0, `/api/team/${victim.teamId}/participants`, { method: 'GET', token: adminToken, minPosition: position });
  for (let tries = 0; tries < 10 && members.text.includes(VICTIM_NAME); tries++) {
    members = await sendUntilAnswered([queryApis[1]!.url!], 0, `/api/team/${victim.teamId}/participants`, { method: 'GET', token: adminToken, minPosition: position });
  }
  expect(members.status).toBe(200);
  expect((members.body as { id: number }[]).map((m) => m.id)).not.toContain(victim.participantId);
  expect(members.text).not.toContain(VICTIM_NAME);

  // ── The projectors catch up; then the read models equal a replay from zero.
  const head = await app.store.headPosition();
  const catchUpStarted = performance.now();
  for (;;) {
    const checkpoints = await readCheckpoints(app.db);
    if (projections.every((p) => (checkpoints[p.name] ?? 0) >= head)) break;
    if (performance.now() - catchUpStarted > 60_000) throw new Error(`projectors behind ${head}: ${JSON.stringify(checkpoints)}`);
    await sleep(50);
  }
  const caughtUpMs = performance.now() - catchUpStarted;
  await Promise.all([...services.map((s) => s.current.kill()), gateway.kill()]);
  const replay = await rebuildReadModels(app.db, app.store, projections);
  const mismatched = replay.checksums.filter((c) => !c.match);
  console.log(`projectors caught up to ${head} ${Math.round(caughtUpMs)} ms after the last command; replay from zero: ${replay.events} events, ` +
    `${replay.checksums.length} tables, ${mismatched.length} differ`);
  expect(mismatched.map((c) => `${c.table}: live ${JSON.stringify(c.live)} vs replay ${JSON.stringify(c.rebuilt)}`)).toEqual([]);
  const starts = services.map((s) => s.starts);
  expect(starts.reduce((a, b) => a + b, 0)).toBe(services.length + kills.length);
}, 300_000);
