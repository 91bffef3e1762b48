/**
 * `npx tsx tests/bench/http-only.ts`: only step 5 of `npm run bench` (http-peers.ts), for working
 * on the write path without the whole bench: the 2025 edition imported and replayed into a
 * scratch database as main.ts does, then POST /api/entry beside its CRUD peer and hello world,
 * printed as the same rows (not kept in docs/bench/runs: a partial run is no run to compare with).
 * HTTP_ROUNDS and HTTP_SECONDS override the rounds (3) and seconds per run (5).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresIdAllocator } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { createScratchDatabase, startLocalServers } from '@sinilill/local-infra';
import { createReadModelDb } from '@sinilill/read-models';
import { migrateToLatest } from '@sinilill/cli';
import { measureImport, measureReplay } from './edition';
import { httpNotes, httpRows, measureHttpPeers } from './http-peers';
import { printTable } from './report';

const NOW = new Date('2025-04-20T10:00:00Z');

async function main() {
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    const url = await createScratchDatabase(servers.databaseServerUrl, 'bench_http');
    const pool = new pg.Pool({ connectionString: url, max: 32 });
    const db = createReadModelDb(pool);
    try {
      await migrateToLatest(pool);
      const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
      await measureImport({ store, ids: new PostgresIdAllocator(pool), pool, databaseUrl: url });
      await measureReplay(db, store, 1);
    } finally {
      // db.destroy() ends the pool it was made on.
      await db.destroy();
      if (!pool.ending) await pool.end();
    }
    const loadBefore = loadavg();
    const http = await measureHttpPeers({
      databaseUrl: url, redisUrl: servers.redisUrl, now: NOW, performedAt: '2025-04-20',
      rounds: Number(process.env.HTTP_ROUNDS ?? 3), seconds: Number(process.env.HTTP_SECONDS ?? 5), connections: 32, users: 64,
    });
    printTable(httpRows(http), [...httpNotes(http), `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores)`]);
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
