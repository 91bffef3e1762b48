/**
 * GET /api/stats beside a Fastify hello world serving the same bytes, on the query API directly and
 * through the gateway (issue 16 items 2, 3 and 7). Units: requests/s (2xx answers per second) and
 * ms (p50 and p99 latency); the gateway's added latency in % of the query API's own.
 *
 * - GET /api/stats on the query API: the real query API (`buildQueryApi` of @sinilill/query-api,
 *   wired as services/query-api/src/server.ts wires it for this route: the read models' pool, the
 *   clock, the token secret; logger off) listening on 127.0.0.1 in this process, on the database
 *   the 2025 edition was imported into and its read models built (121 teams). Its change feed never
 *   speaks (GET /api/stats does not use it: only the live route does); no media, news or history
 *   (routes GET /api/stats does not touch). Each request is a whole GET /api/stats: the team and
 *   totals queries, the schema's serialisation of the answer (about 25 KB). Clock 2025-04-20T10:00Z.
 * - The same through the gateway: the real gateway (`buildGateway` of @sinilill/gateway, logger
 *   off), also on 127.0.0.1 in this process, its query API the one above; GET /api/* goes to the
 *   query API (the gateway's method rule; /api/stats is none of its exceptions), so its command
 *   API URL points at a port nothing listens on and is never called; no web client (webRoot
 *   '/nonexistent'). In production the gateway and the query API are processes of their own
 *   (services/cli start.ts); here they share this process's one event loop, so every proxied
 *   request costs that loop the gateway's work and the query API's.
 * - The peer: a bare `fastify()` whose `GET /` answers the bytes of one GET /api/stats answer
 *   captured beforehand, with its content-type, also on 127.0.0.1 in this process.
 *
 * The load: autocannon, `connections` connections, in one worker thread of its own (so that the
 * load generator does not share the servers' event loop), `seconds` per run; after a 1 s warm-up
 * of each, `rounds` alternating rounds (peer, direct, gateway in odd rounds, the reverse in even
 * ones); figures are the medians over the rounds. Non-2xx answers are counted and reported, never
 * counted as throughput. At a fixed number of connections latency and requests/s are two faces of
 * one figure (latency ≈ connections / requests/s), so the gateway's added latency mirrors the
 * requests/s it costs.
 *
 * Targets (issue 16): GET /api/stats through the gateway ≥ 50 % of the peer's requests/s; the
 * gateway adds ≤ 10 % to the answer's latency (p50 and p99 through the gateway vs directly).
 */
import Fastify from 'fastify';
import pg from 'pg';
import { buildGateway } from '@sinilill/gateway';
import { buildQueryApi } from '@sinilill/query-api';
import { createReadModelDb } from '@sinilill/read-models';
import { load, type LoadFigures } from './load';
import { grouped, median, progress, spread, times, verdict, type Row } from './report';

/**
 * Issue 16's targets: stats requests/s through the gateway as a share of the peer's, at least; the
 * gateway's added latency as a share of the query API's own, at most.
 */
export const STATS_TARGET = { shareOfPeer: 0.5, gatewayAddedLatency: 0.1 } as const;

const JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789';
/** A port nothing listens on (discard): the gateway's command API, never called by GET /api/stats. */
const UNUSED_COMMAND_API = 'http://127.0.0.1:9';

export type StatsRun = LoadFigures;

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
  const api = buildQueryApi({
    db,
    now: () => options.now,
    readYourWritesTimeoutMs: 3000,
    jwtSecret: JWT_SECRET,
    changes: { subscribe: () => () => undefined },
    logger: false,
  });
  const peer = Fastify();
  let gateway: ReturnType<typeof buildGateway> | undefined;
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
    const body = direct.bytes;
    peer.get('/', (_request, reply) => reply.header('content-type', direct.contentType).send(body));
    const peerUrl = await peer.listen({ host: '127.0.0.1', port: 0 });
    const served = await answerOf(peerUrl);
    if (served.status !== 200 || !served.bytes.equals(body)) throw new Error('stats peers: the peer does not answer the captured bytes');
    progress(`stats peers: GET /api/stats answers ${grouped(body.length)} bytes (${direct.contentType}, ${teams} teams)`);

    const urls = { peer: peerUrl, direct: `${apiUrl}/api/stats`, gateway: `${gatewayUrl}/api/stats` };
    progress(`stats peers: warm-up, 1 s each at ${connections} connections`);
    for (const url of Object.values(urls)) await load(url, connections, 1);

    const figures = { peer: [] as StatsRun[], direct: [] as StatsRun[], gateway: [] as StatsRun[] };
    for (let round = 0; round < options.rounds; round++) {
      const forward = ['peer', 'direct', 'gateway'] as const;
      const order = round % 2 === 0 ? forward : [...forward].reverse();
      for (const which of order) figures[which].push(await load(urls[which], connections, seconds));
      const [p, d, g] = [figures.peer.at(-1)!, figures.direct.at(-1)!, figures.gateway.at(-1)!];
      progress(`stats peers: round ${round + 1}/${options.rounds} (${order.join(' then ')}): peer ${Math.round(p.requestsPerSecond)} req/s; `
        + `direct ${Math.round(d.requestsPerSecond)} req/s, p50 ${d.p50} ms, p99 ${d.p99} ms, answers {${d.statusCodes}}, ${d.errors} errors; `
        + `gateway ${Math.round(g.requestsPerSecond)} req/s, p50 ${g.p50} ms, p99 ${g.p99} ms, answers {${g.statusCodes}}, ${g.errors} errors`);
    }
    return { connections, seconds, bytes: body.length, contentType: direct.contentType, teams, ...figures };
  } finally {
    await peer.close();
    await gateway?.close();
    // The gateway's connections to the query API outlive its close(), idle yet not closed by the
    // query API's close() (Fastify's idle-connection close): each would hold it for the keep-alive
    // timeout (72 s). No request is in flight here, so every connection is closed outright.
    const closing = api.close();
    api.server.closeAllConnections();
    await closing;
    await db.destroy();
  }
}

/** What the table's stats rows cannot say: what was served, and that the three share one process. */
export function statsNotes(result: StatsPeersResult): string[] {
  return [
    `GET /api/stats answered ${grouped(result.bytes)} bytes (${result.teams} teams, ${result.contentType}); the peer (a bare fastify() GET /) `
    + 'served exactly those bytes with that content-type. Query API, gateway and peer ran in this process on one event loop (in production '
    + 'the gateway and the query API are processes of their own), so a request through the gateway costs that loop both; the load '
    + `generator (autocannon) ran in a worker thread. At ${result.connections} connections latency ≈ connections / requests/s, so the `
    + 'gateway\'s added latency mirrors the requests/s it costs.',
  ];
}

export function statsRows(result: StatsPeersResult): Row[] {
  const rps = (runs: StatsRun[]) => median(runs.map((r) => r.requestsPerSecond));
  const [peer, direct, gateway] = [rps(result.peer), rps(result.direct), rps(result.gateway)];
  const latency = (runs: StatsRun[], key: 'p50' | 'p99') => median(runs.map((r) => r[key]));
  const refused = (runs: StatsRun[]) => runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const how = `${result.connections} connections, median of ${result.peer.length} × ${result.seconds} s`;
  const kb = `${(result.bytes / 1024).toFixed(1)} KB`;
  const share = gateway / peer;
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
    {
      measure: `HTTP: GET /api/stats through the gateway (${refused(result.gateway)} non-2xx/errors)`,
      result: `${grouped(gateway)} req/s (${spread(result.gateway.map((r) => r.requestsPerSecond))})`,
      ratio: `${times(gateway, peer)} peer (${(share * 100).toFixed(1)} %); ${times(gateway, direct)} direct`,
      target: `≥ ${STATS_TARGET.shareOfPeer * 100} % of the peer through the front door (${verdict(share >= STATS_TARGET.shareOfPeer)})`,
    },
  ];
  for (const key of ['p50', 'p99'] as const) {
    const d = latency(result.direct, key);
    const g = latency(result.gateway, key);
    const added = g / d - 1;
    rows.push({
      measure: `HTTP: GET /api/stats latency ${key}, directly → through the gateway`,
      result: `${grouped(d)} → ${grouped(g)} ms (${spread(result.direct.map((r) => r[key]))} → ${spread(result.gateway.map((r) => r[key]))})`,
      ratio: `gateway adds ${(added * 100).toFixed(1)} % (${grouped(g - d)} ms)`,
      target: `gateway adds ≤ ${STATS_TARGET.gatewayAddedLatency * 100} % (${verdict(added <= STATS_TARGET.gatewayAddedLatency)})`,
    });
  }
  return rows;
}
