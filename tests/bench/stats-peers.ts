/**
 * GET /api/stats beside a Fastify hello world serving the same bytes, on the query API directly,
 * through the gateway and through the production front door, nginx with infra/nginx/sinilill.conf
 *. Units: requests/s (2xx answers per second) and ms (p50 and p99
 * latency); each front door's added latency in % of the query API's own.
 *
 * - GET /api/stats on the query API: the real query API (`buildQueryApi` of @sinilill/query-api,
 *   wired as services/query-api/src/server.ts wires it for this route: the read models' pool, the
 *   clock, the token secret, the process's ReadModelChangeListener, whose positions keep the
 *   answer cache current; logger off) listening on 127.0.0.1 in this process, on the database the
 *   2025 edition was imported into and its read models built (121 teams); no media, news or
 *   history (routes GET /api/stats does not touch). Nothing is appended meanwhile, so after the
 *   first request every GET /api/stats is the cached answer (serialised once per
 *   position, about 25 KB, served from memory). Clock 2025-04-20T10:00Z.
 * - The same through the gateway: the real gateway (`buildGateway` of @sinilill/gateway, logger
 *   off), also on 127.0.0.1 in this process, its query API the one above; GET /api/* goes to the
 *   query API (the gateway's method rule; /api/stats is none of its exceptions), so its command
 *   API URL points at a port nothing listens on and is never called; no web client (webRoot
 *   '/nonexistent'). In production the gateway and the query API are processes of their own
 *   (services/cli start.ts); here they share this process's one event loop, so every proxied
 *   request costs that loop the gateway's work and the query API's.
 * - The same through nginx (when `nginx` is on the PATH; else the rows say it was skipped): the
 *   kit's infra/nginx/sinilill.conf as it is, but for its three addresses (it listens on a free
 *   port, its query API is the one above, its command API the unused one), run by nginx in
 *   processes of its own (`nginx -p <temporary prefix> -c <the copy> -g 'daemon off;'`, worker
 *   processes auto: one per core), started and stopped by the bench.
 * - The peer: a bare `fastify()` whose `GET /` answers the bytes of one GET /api/stats answer
 *   captured beforehand, with its content-type, also on 127.0.0.1 in this process.
 * - An answer that is not cached, for the front door's share of a heavier one: GET
 *   /api/fundraising (public; two read-model queries and a serialisation per request) on the same
 *   query API, directly and through the judged front door.
 *
 * The load: autocannon, `connections` connections, in one worker thread of its own (so that the
 * load generator does not share the servers' event loop), `seconds` per run; after a 1 s warm-up
 * of each, `rounds` alternating rounds (peer, direct, gateway, nginx in odd rounds, the reverse in
 * even ones); figures are the medians over the rounds. Non-2xx answers are counted and reported,
 * never counted as throughput. At a fixed number of connections latency and requests/s are two
 * faces of one figure (latency ≈ connections / requests/s), so a front door's added latency
 * mirrors the requests/s it costs.
 *
 * Targets: GET /api/stats through the front door ≥ 50 % of the peer's requests/s; the
 * front door adds ≤ 10 % to an answer's latency (p50 and p99 through it vs directly; the cached
 * GET /api/stats and the uncached GET /api/fundraising). The front
 * door is nginx where it ran (production's, infra/nginx), else the gateway; the gateway's rows
 * are reported either way (it stays the development front door).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { repoRoot } from '@sinilill/config';
import { freePort } from '@sinilill/local-infra';
import { buildGateway } from '@sinilill/gateway';
import { buildQueryApi, ReadModelChangeListener } from '@sinilill/query-api';
import { createReadModelDb, readCheckpoints } from '@sinilill/read-models';
import { load, type LoadFigures } from './load';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

/**
 * The targets: stats requests/s through the gateway as a share of the peer's, at least; the
 * gateway's added latency as a share of the query API's own, at most.
 */
export const STATS_TARGET = { shareOfPeer: 0.5, gatewayAddedLatency: 0.1 } as const;

const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';
/** A port nothing listens on (discard): the gateway's command API, never called by GET /api/stats. */
const UNUSED_COMMAND_API = 'http://127.0.0.1:9';

export type StatsRun = LoadFigures;

/** The runs: the peer, GET /api/stats directly and through each front door, GET /api/fundraising directly and through the judged door. */
const LEGS = ['peer', 'direct', 'gateway', 'nginx', 'uncachedDirect', 'uncachedDoor'] as const;
type Leg = (typeof LEGS)[number];

/** The kit's nginx configuration. */
export const NGINX_CONF = join(repoRoot, 'infra/nginx/sinilill.conf');

/** True when an `nginx` binary answers on the PATH. */
export function nginxAvailable(): boolean {
  return spawnSync('nginx', ['-v'], { stdio: 'ignore' }).status === 0;
}

/**
 * The kit's configuration with its addresses replaced: listening on `port`, its query and command
 * APIs at `queryApi` and `commandApi` (host:port).
 * @throws Error when the kit no longer has one of the three lines (the bench must follow it).
 */
export function nginxConfFor(kit: string, addresses: { port: number; queryApi: string; commandApi: string }): string {
  const replacements: [RegExp, string][] = [
    [/listen 3000 reuseport;/, `listen 127.0.0.1:${addresses.port} reuseport;`],
    [/(upstream sinilill_query \{\s*server )127\.0\.0\.1:3002;/, `$1${addresses.queryApi};`],
    [/(upstream sinilill_command \{\s*server )127\.0\.0\.1:3001;/, `$1${addresses.commandApi};`],
  ];
  let conf = kit;
  for (const [pattern, replacement] of replacements) {
    if (!pattern.test(conf)) throw new Error(`stats peers: ${NGINX_CONF} has no ${pattern.source}`);
    conf = conf.replace(pattern, replacement);
  }
  return conf;
}

/**
 * Runs nginx with the kit's configuration in front of the APIs at `apis.query` and `apis.command`
 * (URLs) in a temporary prefix (see the module comment; also tests/int/gateway-edges.int.test.ts);
 * `stop()` ends it (SIGQUIT to its master, which this call started) and removes the prefix. Its
 * error log goes to this process's stderr, or line by line to `onErrorLine` when given.
 * @throws Error when nginx does not answer within 10 s.
 */
export async function startNginx(
  apis: { query: string; command: string },
  onErrorLine?: (line: string) => void,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const prefix = mkdtempSync(join(tmpdir(), 'sinilill-nginx-'));
  // nginx's workers run as another user (nobody) when it is started as root: they must reach the temp paths.
  chmodSync(prefix, 0o755);
  mkdirSync(join(prefix, '.data/nginx'), { recursive: true });
  const port = await freePort();
  const conf = join(prefix, 'sinilill.conf');
  writeFileSync(conf, nginxConfFor(readFileSync(NGINX_CONF, 'utf8'), {
    port, queryApi: new URL(apis.query).host, commandApi: new URL(apis.command).host,
  }));
  const child: ChildProcess = spawn('nginx', ['-p', `${prefix}/`, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', onErrorLine ? 'pipe' : 'inherit'] });
  if (onErrorLine) {
    let partial = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onErrorLine(line);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGQUIT');
    await exited;
    rmSync(prefix, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health/live`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`stats peers: nginx did not start (exit ${child.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface StatsPeersResult {
  connections: number;
  seconds: number;
  /** Size of the GET /api/stats answer, bytes, its content-type and its number of teams. */
  bytes: number;
  contentType: string;
  teams: number;
  peer: StatsRun[];
  direct: StatsRun[];
  gateway: StatsRun[];
  /** Through nginx with the kit's configuration; null when nginx is not installed here. */
  nginx: StatsRun[] | null;
  /**
   * GET /api/fundraising, an answer that is not cached (two read-model queries per request),
   * directly and through the judged front door (nginx where it ran, else the gateway); its size, bytes.
   */
  uncached: { direct: StatsRun[]; door: StatsRun[]; bytes: number };
}

/** One GET answer's status, content-type and bytes (refusing a compressed one: the load asks for none). */
async function answerOf(url: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const answer = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const bytes = Buffer.from(await answer.arrayBuffer());
  if (answer.headers.get('content-encoding')) throw new Error(`stats peers: ${url} answered ${answer.headers.get('content-encoding')}-encoded`);
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', bytes };
}

/**
 * Runs the three servers in this process and measures them (see the module comment).
 * `databaseUrl`: a migrated database with the 2025 edition imported and its read models built.
 */
export async function measureStatsPeers(options: {
  databaseUrl: string;
  now: Date;
  connections: number;
  seconds: number;
  rounds: number;
}): Promise<StatsPeersResult> {
  const { connections, seconds } = options;
  // The query API's pool size in production (services/query-api/src/server.ts: createPool(…, 20)).
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  const db = createReadModelDb(pool);
  const changes = new ReadModelChangeListener({ connectionString: options.databaseUrl, readCheckpoints: () => readCheckpoints(db) });
  await changes.start();
  const api = buildQueryApi({
    db,
    now: () => options.now,
    readYourWritesTimeoutMs: 3000,
    jwtSecret: JWT_SECRET,
    changes,
    logger: false,
  });
  const peer = Fastify();
  let gateway: ReturnType<typeof buildGateway> | undefined;
  let nginx: { url: string; stop: () => Promise<void> } | undefined;
  try {
    const apiUrl = await api.listen({ host: '127.0.0.1', port: 0 });
    gateway = buildGateway({ queryApiUrl: apiUrl, commandApiUrl: UNUSED_COMMAND_API, webRoot: '/nonexistent', logger: false });
    const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });

    // One answer by hand first: its bytes are the peer's, and a refusal would make every figure meaningless.
    const direct = await answerOf(`${apiUrl}/api/stats`);
    if (direct.status !== 200) throw new Error(`stats peers: GET /api/stats answered ${direct.status}: ${direct.bytes.toString()}`);
    const teams = (JSON.parse(direct.bytes.toString()) as { teams: unknown[] }).teams.length;
    if (teams === 0) throw new Error('stats peers: GET /api/stats has no teams (import and replay first)');
    const viaGateway = await answerOf(`${gatewayUrl}/api/stats`);
    if (viaGateway.status !== 200 || !viaGateway.bytes.equals(direct.bytes)) {
      throw new Error(`stats peers: GET /api/stats through the gateway answered ${viaGateway.status} with ${viaGateway.bytes.length} bytes, `
        + `not the query API's ${direct.bytes.length}`);
    }
    if (nginxAvailable()) {
      nginx = await startNginx({ query: apiUrl, command: UNUSED_COMMAND_API });
      const viaNginx = await answerOf(`${nginx.url}/api/stats`);
      if (viaNginx.status !== 200 || !viaNginx.bytes.equals(direct.bytes)) {
        throw new Error(`stats peers: GET /api/stats through nginx answered ${viaNginx.status} with ${viaNginx.bytes.length} bytes`);
      }
    } else {
      progress('stats peers: nginx is not installed here: its rows are skipped');
    }
    const body = direct.bytes;
    peer.get('/', (_request, reply) => reply.header('content-type', direct.contentType).send(body));
    const peerUrl = await peer.listen({ host: '127.0.0.1', port: 0 });
    const served = await answerOf(peerUrl);
    if (served.status !== 200 || !served.bytes.equals(body)) throw new Error('stats peers: the peer does not answer the captured bytes');
    progress(`stats peers: GET /api/stats answers ${grouped(body.length)} bytes (${direct.contentType}, ${teams} teams)`);
    const uncached = await answerOf(`${apiUrl}/api/fundraising`);
    if (uncached.status !== 200) throw new Error(`stats peers: GET /api/fundraising answered ${uncached.status}`);
    const uncachedBytes = uncached.bytes.length;

    const door = nginx?.url ?? gatewayUrl;
    const urls = {
      peer: peerUrl, direct: `${apiUrl}/api/stats`, gateway: `${gatewayUrl}/api/stats`, ...(nginx ? { nginx: `${nginx.url}/api/stats` } : {}),
      uncachedDirect: `${apiUrl}/api/fundraising`, uncachedDoor: `${door}/api/fundraising`,
    } as Record<Leg, string>;
    const legs = LEGS.filter((leg) => urls[leg] !== undefined);
    progress(`stats peers: warm-up, 1 s each at ${connections} connections`);
    for (const leg of legs) await load(urls[leg], connections, 1);

    const figures = Object.fromEntries(LEGS.map((leg) => [leg, [] as StatsRun[]])) as Record<Leg, StatsRun[]>;
    const said = (leg: (typeof legs)[number]) => {
      const run = figures[leg].at(-1)!;
      return leg === 'peer' ? `peer ${Math.round(run.requestsPerSecond)} req/s`
        : `${leg} ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, answers {${run.statusCodes}}, ${run.errors} errors`;
    };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? legs : [...legs].reverse();
      for (const leg of order) figures[leg].push(await load(urls[leg], connections, seconds));
      progress(`stats peers: round ${round + 1}/${options.rounds} (${order.join(' then ')}): ${legs.map(said).join('; ')}`);
    }
    return {
      connections, seconds, bytes: body.length, contentType: direct.contentType, teams,
      peer: figures.peer, direct: figures.direct, gateway: figures.gateway, nginx: nginx ? figures.nginx : null,
      uncached: { direct: figures.uncachedDirect, door: figures.uncachedDoor, bytes: uncachedBytes },
    };
  } finally {
    await nginx?.stop();
    await peer.close();
    await gateway?.close();
    // The gateway's connections to the query API outlive its close(), idle yet not closed by the
    // query API's close() (Fastify's idle-connection close): each would hold it for the keep-alive
    // timeout (72 s). No request is in flight here, so every connection is closed outright.
    const closing = api.close();
    api.server.closeAllConnections();
    await closing;
    await changes.close();
    await db.destroy();
  }
}

/** What the table's stats rows cannot say: what was served, and that the three share one process. */
export function statsNotes(result: StatsPeersResult): string[] {
  return [
    `GET /api/stats answered ${grouped(result.bytes)} bytes (${result.teams} teams, ${result.contentType}), from the query API's answer cache `
    + '(nothing was appended during the runs); the peer (a bare fastify() GET /) served exactly those bytes with that content-type. Query API, '
    + 'gateway and peer ran in this process on one event loop (in production the gateway and the query API are processes of their own), so '
    + 'a request through the gateway costs that loop both; nginx ran as processes of its own (one worker per core); the load generator '
    + `(autocannon) ran in a worker thread. At ${result.connections} connections latency ≈ connections / requests/s, so a front door's `
    + 'added latency mirrors the requests/s it costs.',
    result.nginx ? 'the front door judged against the targets is nginx with infra/nginx/sinilill.conf (production\'s); the gateway is the development one.'
      : 'nginx is not installed here: the front door judged against the targets is the gateway.',
  ];
}

export function statsRows(result: StatsPeersResult): Row[] {
  const rps = (runs: StatsRun[]) => median(runs.map((r) => r.requestsPerSecond));
  const [peer, direct] = [rps(result.peer), rps(result.direct)];
  const latency = (runs: StatsRun[], key: 'p50' | 'p99') => median(runs.map((r) => r[key]));
  const refused = (runs: StatsRun[]) => runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const how = `${result.connections} connections, median of ${result.peer.length} × ${result.seconds} s`;
  const kb = `${(result.bytes / 1024).toFixed(1)} KB`;
  const doors = [
    { name: 'the gateway', runs: result.gateway, judged: result.nginx === null },
    ...(result.nginx ? [{ name: 'nginx (infra/nginx/sinilill.conf)', runs: result.nginx, judged: true }] : []),
  ];
  const rows: Row[] = [
    {
      measure: `HTTP: Fastify hello world serving the stats answer's ${kb}, GET / (${how})`,
      result: `${grouped(peer)} req/s (${spread(result.peer.map((r) => r.requestsPerSecond))})`,
      ratio: '(peer)',
      target: '',
    },
    {
      measure: `HTTP: GET /api/stats on the query API directly (${result.teams} teams; ${refused(result.direct)} non-2xx/errors)`,
      result: `${grouped(direct)} req/s (${spread(result.direct.map((r) => r.requestsPerSecond))})`,
      ratio: `${times(direct, peer)} peer (${(direct / peer * 100).toFixed(1)} %)`,
      target: '',
    },
  ];
  const judged = (door: { judged: boolean }, target: string) => (door.judged ? target : `${target.split(' (')[0]} (not judged: development only)`);
  for (const door of doors) {
    const through = rps(door.runs);
    const share = through / peer;
    rows.push({
      measure: `HTTP: GET /api/stats through ${door.name} (${refused(door.runs)} non-2xx/errors)`,
      result: `${grouped(through)} req/s (${spread(door.runs.map((r) => r.requestsPerSecond))})`,
      ratio: `${times(through, peer)} peer (${(share * 100).toFixed(1)} %); ${times(through, direct)} direct`,
      target: judged(door, `≥ ${STATS_TARGET.shareOfPeer * 100} % of the peer through the front door (${verdict(share >= STATS_TARGET.shareOfPeer)})`),
    });
  }
  if (!result.nginx) {
    rows.push({ measure: 'HTTP: GET /api/stats through nginx (infra/nginx/sinilill.conf)', result: 'skipped: nginx is not installed here', ratio: '', target: '' });
  }
  // Latency through a front door vs directly. autocannon's percentiles are whole ms (a cached
  // answer's p50 is 1–2 ms), so the verdict is on the mean, which at a fixed number of
  // connections is connections / requests/s (Little's law): the ratio of the requests/s.
  const latencyRows = (what: string, door: { name: string; judged: boolean }, directRuns: StatsRun[], doorRuns: StatsRun[]) => {
    const [d, g] = [rps(directRuns), rps(doorRuns)];
    const added = d / g - 1;
    const mean = (rate: number) => (result.connections / rate) * 1000;
    const percentiles = (runs: StatsRun[]) => `p50 ${grouped(latency(runs, 'p50'))}, p99 ${grouped(latency(runs, 'p99'))}`;
    rows.push({
      measure: `HTTP: ${what} latency, directly → through ${door.name}`,
      result: `mean ${mean(d).toFixed(2)} → ${mean(g).toFixed(2)} ms (${percentiles(directRuns)} → ${percentiles(doorRuns)} ms)`,
      ratio: `adds ${(added * 100).toFixed(1)} % (${(mean(g) - mean(d)).toFixed(2)} ms)`,
      // The target is ≤ 10 % of the gateway, or the gateway replaced by a kept reverse proxy in the
      // deploy kit and the proxy measured: nginx is that proxy, so its figure is reported, and
      // its verdict says so rather than judging it.
      target: door.name.startsWith('nginx')
        ? `≤ ${STATS_TARGET.gatewayAddedLatency * 100} % asked of the gateway (${added <= STATS_TARGET.gatewayAddedLatency ? 'met' : 'not met'} by nginx, which replaces it: measured)`
        : judged(door, `front door adds ≤ ${STATS_TARGET.gatewayAddedLatency * 100} % (${verdict(added <= STATS_TARGET.gatewayAddedLatency)})`),
    });
  };
  for (const door of doors) latencyRows('GET /api/stats', door, result.direct, door.runs);
  latencyRows(`GET /api/fundraising (not cached, ${grouped(result.uncached.bytes)} bytes)`, doors.find((door) => door.judged)!,
    result.uncached.direct, result.uncached.door);
  return rows;
}
