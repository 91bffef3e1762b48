/**
 * The site heals itself, and nothing acknowledged is lost. The whole app as `npm start`
 * runs it, under a steady load of entries from a real member (6 clients): each service is killed
 * (SIGKILL) in turn, then PostgreSQL is crashed (immediate shutdown, SIGQUIT to the postmaster)
 * and started again. After each, the site answers again within seconds; at the end every entry
 * answered 2xx is in the log exactly once at the position it was answered with, no position was
 * handed out twice, and the read models equal a replay from zero.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { EntryAnswer, ReplayStatus } from '@sinilill/contracts';
import { startEmbeddedPostgres, type RunningService } from '@sinilill/local-infra';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_STACKS, ownStack } from '../support/shared-stack';

const ADMIN = { email: E2E_STACKS.emptyApril20.ADMIN_EMAIL, password: E2E_STACKS.emptyApril20.ADMIN_PASSWORD };
const MEMBER = { email: 'resilience-member@example.ee', password: 'Sinilill jookseb 2025!' };
/** How long the site may take to answer again after a kill (launcher back-off 0.5 s + start). */
const RECOVERY_BOUND_MS = 20_000;
/** How long the projections may take to reach the log's head once the load has stopped. */
const PROJECTION_CATCH_UP_BOUND_MS = 15_000;

let stack: RunningStack;
let port: number;
let restartedPostgres: RunningService | null = null;
const api = (path: string) => `${stack.baseUrl}/api${path}`;

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${response.status}: ${text}`);
  }
}

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(api(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function login(email: string, password: string): Promise<string> {
  const response = await post('/login', { email, password });
  expect(response.status).toBe(200);
  return (await json<{ token: string }>(response)).token;
}

/** Registers a team captain through the API and confirms the account from the local inbox. */
async function registerMember(): Promise<void> {
  const registered = await post('/registerteam', {
    full_name: 'Kadri Kask', email: MEMBER.email, gender: 'FEMALE', birth_year: 1985, password: MEMBER.password,
    newsletter: false, type: 'REGISTER_TEAM', team_name: 'Vastupidavad Vaprad', lang: 'est',
  });
  expect(registered.status, await registered.clone().text()).toBe(200);
  let link: RegExpExecArray | null = null;
  await eventually(async () => {
    const mails = await json<{ text: string; to: { address: string }[] }[]>(await fetch(`http://127.0.0.1:${port + 6}/email`));
    const mail = mails.find((m) => m.to.some((to) => to.address === MEMBER.email));
    link = mail ? /\/confirm\/account\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text) : null;
    return link !== null;
  }, 20_000);
  const confirmed = await post('/confirmaccount', { token: link![1], id: link![2] });
  expect(confirmed.status).toBe(200);
}

/** Entries added by several clients until stopped: what was acknowledged, and what failed how. */
function startLoad(token: () => string, clients = 6) {
  const acknowledged: { id: number; position: number }[] = [];
  const failures: Record<string, number> = {};
  let running = true;
  let day = 0;
  const client = async () => {
    while (running) {
      day = (day % 30) + 1;
      try {
        const response = await post('/entry', {
          distance: 1.25, entry_type: 'WALK', performed_at: `2025-04-${String(day).padStart(2, '0')}`,
        }, token());
        if (response.status === 200) {
          const answer = await json<EntryAnswer>(response);
          acknowledged.push({ id: answer.entry.id, position: answer.position });
        } else {
          await response.body?.cancel();
          failures[String(response.status)] = (failures[String(response.status)] ?? 0) + 1;
        }
      } catch {
        failures.network = (failures.network ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const done = Promise.all(Array.from({ length: clients }, client));
  return {
    acknowledged,
    failures,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** The pid of a service of this stack: its compiled server, with this stack's PORT in its environment. */
function servicePid(service: string): number | null {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!args.includes(`services/${service}/dist/server.js`)) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (env.includes(`PORT=${port}`)) return Number(pid);
    } catch {
      // ended meanwhile
    }
  }
  return null;
}

/** Resolves with the ms it took until the site reads and takes an entry again. */
async function recovery(since: number, token: () => string): Promise<number> {
  await eventually(async () => {
    try {
      const stats = await fetch(api('/stats'));
      if (stats.status !== 200) return false;
      const added = await post('/entry', { distance: 0.5, entry_type: 'WALK', performed_at: '2025-04-15' }, token());
      await added.body?.cancel();
      return added.status === 200;
    } catch {
      return false;
    }
  }, RECOVERY_BOUND_MS + 10_000);
  return performance.now() - since;
}

beforeAll(async () => {
  // Alone: its recovery bounds are measured with no other stack booting on the machine.
  stack = await ownStack(E2E_STACKS.emptyApril20, { alone: true });
  port = Number(new URL(stack.baseUrl).port);
  await registerMember();
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await restartedPostgres?.stop();
});

test('killing each service and crashing PostgreSQL under load loses nothing acknowledged; the site answers again within seconds', async () => {
  let token = await login(MEMBER.email, MEMBER.password);
  // The access token is short-lived: keep a fresh one for the load (a login is cheap here).
  const refresher = setInterval(() => {
    void login(MEMBER.email, MEMBER.password).then((fresh) => { token = fresh; }).catch(() => undefined);
  }, 60_000);
  const load = startLoad(() => token);
  const recoveries: Record<string, number> = {};
  try {
    await eventually(async () => load.acknowledged.length >= 20, 30_000);
    for (const service of ['query-api', 'command-api', 'projector', 'gateway']) {
      const pid = servicePid(service);
      expect(pid, `${service} runs`).not.toBeNull();
      const killedAt = performance.now();
      process.kill(pid!, 'SIGKILL');
      recoveries[service] = await recovery(killedAt, () => token);
      await eventually(async () => servicePid(service) !== null && servicePid(service) !== pid, 30_000);
      const before = load.acknowledged.length;
      await eventually(async () => load.acknowledged.length >= before + 10, 30_000);
    }

    // PostgreSQL: an immediate shutdown (no checkpoint, as a crash), then a start on the same files.
    const postgresDir = join(stack.dataDir, 'postgres');
    const postmaster = Number(readFileSync(join(postgresDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const crashedAt = performance.now();
    process.kill(postmaster, 'SIGQUIT');
    await eventually(async () => {
      try {
        process.kill(postmaster, 0);
        return false;
      } catch {
        return true;
      }
    }, 20_000);
    restartedPostgres = await startEmbeddedPostgres({ dataDir: postgresDir, port: port + 3 });
    recoveries.postgresql = await recovery(crashedAt, () => token);
    const before = load.acknowledged.length;
    await eventually(async () => load.acknowledged.length >= before + 10, 30_000);
  } finally {
    await load.stop();
    clearInterval(refresher);
  }
  console.log(`acknowledged ${load.acknowledged.length} entries; refused or failed: ${JSON.stringify(load.failures)}; recovery ms: ${JSON.stringify(Object.fromEntries(Object.entries(recoveries).map(([k, v]) => [k, Math.round(v)])))}`);
  for (const [part, ms] of Object.entries(recoveries)) expect(ms, part).toBeLessThan(RECOVERY_BOUND_MS);
  // Failures may only be the parts being down: 503 from the gateway, or no connection at all.
  expect(Object.keys(load.failures).filter((status) => status !== '503' && status !== 'network' && status !== '502')).toEqual([]);

  let head = 0;
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port + 3}/sinilill` });
  await client.connect();
  try {
    const { rows } = await client.query<{ global_position: number; entry_id: number; type: string }>(
      "SELECT global_position::int AS global_position, (data->>'entryId')::int AS entry_id, type FROM es.events WHERE stream LIKE 'entry-%'",
    );
    const byEntry = new Map<number, number[]>();
    const entryAt = new Map<number, number>();
    for (const row of rows) {
      entryAt.set(row.global_position, row.entry_id);
      if (row.type === 'EntryAdded') byEntry.set(row.entry_id, [...(byEntry.get(row.entry_id) ?? []), row.global_position]);
    }
    // Every acknowledged entry is in the log once, in the append its answer named: the answer's
    // position is its append's last event, the EntryAdded or the EntryFlagged that
    // moderation appends with it — the load repeats its entries, which the duplicate rule flags.
    const lost = load.acknowledged.filter(({ id }) => !byEntry.has(id));
    expect(lost).toEqual([]);
    expect([...byEntry.values()].filter((positions) => positions.length > 1)).toEqual([]);
    expect(load.acknowledged.filter(({ id, position }) => entryAt.get(position) !== id || byEntry.get(id)![0]! > position)).toEqual([]);
    // Positions are dense and never re-issued: the log's positions are unique by its key, and
    // every acknowledged position holds the event it was acknowledged for (above).
    const found = await client.query<{ head: number }>('SELECT max(global_position)::int AS head FROM es.events');
    head = found.rows[0]!.head;
    expect(head).toBeGreaterThanOrEqual(Math.max(...load.acknowledged.map((a) => a.position)));
    // The projections have not stalled: every checkpoint reaches the head soon after the load.
    const stoppedAt = performance.now();
    await eventually(async () => {
      const { rows: [lowest] } = await client.query<{ position: number }>('SELECT min(position)::int AS position FROM rm.checkpoints');
      return (lowest?.position ?? 0) >= head;
    }, PROJECTION_CATCH_UP_BOUND_MS);
    recoveries.projections = performance.now() - stoppedAt;
  } finally {
    await client.end();
  }

  // The read models caught up equal a replay from zero.
  const admin = await login(ADMIN.email, ADMIN.password);
  // Read-your-writes: the query API answers once every projection has reached the log's head.
  const stats = async () => json<unknown>(await fetch(api('/stats'), { headers: { 'x-min-position': String(head) } }));
  const statsBefore = await stats();
  const started = await post('/admin/replay', {}, admin);
  expect(started.status, await started.clone().text()).toBe(200);
  const { jobId } = await json<{ jobId: string }>(started);
  let status: ReplayStatus | null = null;
  await eventually(async () => {
    status = await json<ReplayStatus>(await fetch(api(`/admin/replay/${jobId}`), { headers: { authorization: `Bearer ${admin}` } }));
    return status.state === 'completed' || status.state === 'failed';
  }, 120_000);
  const finished = status! as ReplayStatus;
  expect(finished.state).toBe('completed');
  expect(finished.result!.after).toEqual(finished.result!.before);
  expect(await stats()).toEqual(statsBefore);
  console.log(`projections caught up ${Math.round(recoveries.projections!)} ms after the load stopped`);
}, 600_000);
