/**
 * `npm run bench`: the spine's speed on this machine beside its peers, printed as one table
 * (measure | result | ratio to peer | target). A benchmark, not a timed test:
 * nothing here fails on a slow run; each target is printed beside its figure with "met" or
 * "MISSED". Figures without a peer carry their ratio to their target instead.
 *
 * In one run, in this order (each module's comment says exactly what it measures):
 * 1. append beside its peers (append-peers.ts): single-event appends to new streams at 1, 8 and
 *    32 concurrent writers, raw INSERT+COMMIT vs ours vs Emmett in alternating rounds, median
 *    events/s, ratios ours/raw and ours/Emmett. Targets: 32 writers ≥ 1.0× raw, ≥ 1.5× Emmett;
 *    1 and 8 writers ≥ 0.8× raw, ≥ 1.5× Emmett. On a scratch database of its own, so that its
 *    events never reach the edition's log below;
 * 2. the 2025 import in bulk with the account tables, as `npm run import` (edition.ts): events/s
 *    and seconds. Target: ≥ 20 000 events/s;
 * 3. replay of that log into fresh read-model tables, all projections (edition.ts): events/s,
 *    best of 3. Target: ≥ 20 000 events/s;
 * 4. projection lag at 100, 500 and 1 000 appends/s through BullMQ to a projector process (lag.ts): p50 / p95 / p99, ms.
 *    Target: p99 ≤ 100 ms at 500 appends/s;
 * 5. POST /api/entry end to end beside its CRUD peer, a conventional Fastify + pg app doing the
 *    same request in one SQL transaction (http-peers.ts, crud-peer.ts), with a Fastify hello world
 *    as a reference line: requests/s of the three and the ratios, p50/p99 of ours and the peer's,
 *    ms, 32 connections, alternating rounds. Targets: ≥ 70 % of the peer's requests/s, p99 ≤ 1.5×
 *    the peer's;
 * 6. GET /api/stats beside a Fastify hello world serving the same bytes, on the query API directly
 *    and through the gateway (stats-peers.ts): requests/s of the three
 *    and their ratios to the peer, p50 and p99 of the two, ms, and the gateway's added latency, %,
 *    32 connections. Targets: through the gateway ≥ 50 % of the peer; the gateway adds ≤ 10 %;
 * 6b. activity-file uploads of a 1, 10 and 19 MB GPX through HTTP to the command API, each read in
 *    its child process as in production (uploads.ts): seconds to the answer, the reading child's
 *    and the API process's peak resident memory, MB. Target: each answered 200 within 10 s;
 * 7. the home route's JavaScript, gzipped, from a fresh production build (web-size.ts): KB.
 *    Target: ≤ 250 KB;
 * 7b. the rush, the last evening of April through nginx (rush.ts): 1 000 participants of 150
 *    teams add 3 entries each within 60 s while 300 readers reload their team page and the home
 *    page every 5 s with the live streams open, on a database and a stack of their own:
 *    requests/s, errors, p50 / p99 per route, the live stream's lag, and the read models against
 *    a replay afterwards. Targets: 0 errors, POST /api/entry p99 ≤ 250 ms, the step < 3 min
 *    (BENCH_RUSH_SCALE=0 skips it);
 * 4b. N projector processes sharing the projections (projector-share.ts): the
 *    2025 backlog caught up from empty read models by one process and by two, events/s and gain;
 * 8. a synthetic edition of BENCH_SYNTHETIC_EVENTS events (default 1 000 000; 0 skips it) imported
 *    through the same bulk path, on a scratch database of its own, last so that its load does not
 *    disturb the other figures (edition.ts): seconds and events/s. Target: < 60 s for a million;
 * 9. on that log, the replay at scale beside a plain ordered read of es.events (replay-scale.ts):
 *    events/s of both, the replay's peak resident memory and its checksums.
 *    Targets: ≥ 0.4× the plain read, ≤ 300 MB, all match;
 * 10. on that log, the first page of each admin tab and of the public participants table
 *    (table-pages.ts), ms. Target: ≤ 1 s.
 *
 * The app's clock is 2025-04-20T10:00Z (inside April: entries are accepted). Uses DATABASE_URL /
 * REDIS_URL when set, else starts embedded PostgreSQL and redis-server in a temporary folder.
 * About 4–5 minutes on the 2-core dev machine without the synthetic edition and the rush, plus
 * about three minutes for a million synthetic events (the import, two replays, the tables) and
 * two to three for the rush.
 *
 * Every line is printed beside the same line of the last kept run (docs/bench/runs, kept-runs.ts),
 * REGRESSED where it is more than 20 % worse; the run is then kept there itself.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CommandService, PostgresIdAllocator } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { createScratchDatabase, startLocalServers } from '@sinilill/local-infra';
import { createReadModelDb } from '@sinilill/read-models';
import { migrateToLatest } from '@sinilill/cli';
import { APPEND_NOTES, appendRows, measureAppendPeers } from './append-peers';
import {
  EDITION_NOTES,
  editionRows,
  measureImport,
  measureReplay,
  measureSyntheticImport,
  syntheticEventsFromEnv,
  syntheticRows,
} from './edition';
import { httpNotes, httpRows, measureHttpPeers } from './http-peers';
import { LAG_RATES, lagRows, measureProjectionLag, startProjectorProcess } from './lag';
import { measureProjectorShare, projectorShareRows } from './projector-share';
import { measureReplayAtScale, replayScaleRows, type ReplayScaleFigures } from './replay-scale';
import { measureRush, rushNotes, rushRows, rushScaleFromEnv } from './rush';
import { measureTablePages, tablePageRows, type TablePageResult } from './table-pages';
import { compareRows, keepRun, lastKeptRun, machineNote, REGRESSION_THRESHOLD } from './kept-runs';
import { printTable, progress, type Row } from './report';
import { measureStatsPeers, statsNotes, statsRows } from './stats-peers';
import { measureUploads, uploadRows } from './uploads';
import { measureHomeRoute, webSizeRows } from './web-size';

/** The app's clock during the bench, and the day its entries are for. */
const NOW = new Date('2025-04-20T10:00:00Z');
const PERFORMED_AT = '2025-04-20';

const APPEND = { rounds: 5, seconds: 2 };
const LAG = { seconds: 10 };
const HTTP = { rounds: 3, seconds: 5, connections: 32, users: 64 };
const STATS = { rounds: 3, seconds: 5, connections: 32 };

async function main() {
  const began = performance.now();
  const loadAtStart = loadavg()[0]!;
  const syntheticEvents = syntheticEventsFromEnv();
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    const { databaseServerUrl: serverUrl, redisUrl } = servers;
    const rows: Row[] = [];

    // 1. Append beside its peers, on a database of its own.
    rows.push(...appendRows(await measureAppendPeers(await createScratchDatabase(serverUrl, 'bench_append'), APPEND)));

    // 2.–4. The 2025 edition: import, replay, projection lag.
    const url = await createScratchDatabase(serverUrl, 'bench');
    const pool = new pg.Pool({ connectionString: url, max: 32 });
    const db = createReadModelDb(pool);
    try {
      await migrateToLatest(pool);
      const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
      const ids = new PostgresIdAllocator(pool);
      const commands = new CommandService({ store, ids, now: () => NOW });
      const imported = await measureImport({ store, ids, pool, databaseUrl: url });
      const replay = await measureReplay(db, store);
      rows.push(...editionRows(imported, replay));
      const projector = await startProjectorProcess(url, redisUrl);
      try {
        for (const rate of LAG_RATES) {
          rows.push(...lagRows(await measureProjectionLag({ db, databaseUrl: url, store, commands, redisUrl, projector, rate, ...LAG, performedAt: PERFORMED_AT })));
        }
      } finally {
        await projector.stop();
      }
    } finally {
      await db.destroy();
      if (!pool.ending) await pool.end();
    }

    // 4b. N projector processes sharing the projections: a backlog caught up by 1 and by 2.
    rows.push(...projectorShareRows(await measureProjectorShare({ databaseUrl: url, redisUrl })));

    // 5. POST /api/entry beside its CRUD peer and hello world, on the imported edition.
    const http = await measureHttpPeers({ databaseUrl: url, redisUrl, now: NOW, performedAt: PERFORMED_AT, ...HTTP });
    rows.push(...httpRows(http));

    // 6. GET /api/stats beside a hello world with its bytes, directly and through the gateway.
    const stats = await measureStatsPeers({ databaseUrl: url, now: NOW, ...STATS });
    rows.push(...statsRows(stats));

    // 6b. Activity-file uploads through HTTP, each read in its own child process.
    rows.push(...uploadRows(await measureUploads({ serverUrl })));

    // 7. The home route's JavaScript.
    progress('building the web client for the home route\'s size');
    rows.push(...webSizeRows(measureHomeRoute()));

    // 7b. The rush: the last evening of April through nginx, on a database and a stack of its own.
    const rushScale = rushScaleFromEnv();
    const rush = rushScale > 0 ? await measureRush({ serverUrl, redisUrl, scale: rushScale }) : null;
    if (rushScale > 0) rows.push(...rushRows(rush));

    // 8. A synthetic edition through the bulk path, on a database of its own.
    // 9.–10. On it: the replay at scale beside a plain read, and the admin tables' first pages.
    const synthetic = syntheticEvents > 0
      ? await measureSyntheticImport<{ replay: ReplayScaleFigures; pages: TablePageResult[] }>({
        serverUrl, events: syntheticEvents,
        afterwards: async (databaseUrl) => {
          const replay = await measureReplayAtScale(databaseUrl);
          progress('the admin tabs\' and the public table\'s first pages on the synthetic edition');
          return { replay, pages: await measureTablePages({ databaseUrl, now: NOW }) };
        },
      })
      : null;
    rows.push(...syntheticRows(synthetic));
    if (synthetic?.afterwards) {
      rows.push(...replayScaleRows(synthetic.afterwards.replay));
      rows.push(...tablePageRows(synthetic.afterwards.pages));
    }

    // Each figure beside the last kept run's, then this run kept for the next one.
    const runsDir = join(repoRoot, 'docs/bench/runs');
    const compared = compareRows(rows, lastKeptRun(runsDir));
    printTable(compared.rows, [...APPEND_NOTES, ...EDITION_NOTES, ...httpNotes(http), ...statsNotes(stats), ...rushNotes(rush)]);
    if (compared.regressions.length > 0) console.log(`\nREGRESSED (worse than the last kept run by more than ${REGRESSION_THRESHOLD * 100} %):\n${compared.regressions.map((r) => `  ${r}`).join('\n')}`);
    const kept = keepRun(runsDir, { at: new Date().toISOString(), machine: machineNote(loadAtStart, repoRoot), rows });
    console.log(`\nkept as ${kept} (commit it to make it the figure the next run compares with)`);
    console.log(`\n(${((performance.now() - began) / 1000).toFixed(0)} s in all; the machine's other load makes every figure noisy.)`);
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
