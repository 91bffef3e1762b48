/**
 * `npm run bench`: the spine's speed on this machine, printed as a table (a benchmark, not a
 * timed test: nothing here fails on a slow run; the targets are printed beside the numbers).
 *
 * 1. append throughput: single-event appends to distinct streams, 8 in flight (events/s);
 * 2. projection lag: entries added through the CommandService at 100 per second, the projector
 *    woken through BullMQ as in production; lag = time from the append's answer until every
 *    projection's checkpoint covers its position (p50 / p95 / p99, ms). Target: p99 < 250 ms;
 * 3. replay throughput: the 2025 export imported, then every read model rebuilt from the log
 *    into fresh tables and swapped in (events/s). Target: >= 20 000 events/s.
 * 4. the home route's JavaScript, gzipped, from a fresh production build (web-size.ts).
 *    Target: <= 250 KB.
 *
 * Uses DATABASE_URL / REDIS_URL when set, else starts embedded PostgreSQL and redis-server in a
 * temporary folder.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CommandService, PostgresIdAllocator } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS, type ActingUser } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { createScratchDatabase, startLocalServers } from '@sinilill/local-infra';
import { WakeUpPublisher } from '@sinilill/messaging';
import { startProjector } from '@sinilill/projector';
import { createReadModelDb, projections, rebuildReadModels } from '@sinilill/read-models';
import { importEdition, migrateToLatest } from '@sinilill/cli';
import { measureHomeRoute } from './web-size';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  const tmp = mkdtempSync(join(repoRoot, '.tmp-bench-'));
  chmodSync(tmp, 0o755);
  const servers = await startLocalServers(tmp, { databaseServerUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL });
  try {
    const { databaseServerUrl: serverUrl, redisUrl } = servers;
    const url = await createScratchDatabase(serverUrl, 'bench');
    const pool = new pg.Pool({ connectionString: url, max: 16 });
    const db = createReadModelDb(pool);
    await migrateToLatest(pool);
    const raw = new PostgresEventStore({ pool });
    const store = withPersonalDataProtection(raw, new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
    const ids = new PostgresIdAllocator(pool);
    const commands = new CommandService({ store, ids, now: () => new Date('2025-04-20T10:00:00Z') });
    const rows: [string, string, string][] = [];

    // 1. Append throughput.
    const appends = 5000;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < appends) {
        const i = next++;
        await raw.appendToStream(`bench-${i}`, [{
          id: randomUUID(), type: 'BenchHappened', schemaVersion: 1, data: { i },
          metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'bench', causationId: null },
        }], { expectedRevision: 'no_stream' });
      }
    }));
    const appendRate = appends / ((performance.now() - t0) / 1000);
    rows.push(['append throughput (1 event per append, 8 in flight)', `${Math.round(appendRate)} events/s`, 'n/a']);

    // 2. Replay throughput on the 2025 export.
    const imported = await importEdition({ dir: join(repoRoot, 'infra/seed/edition-2025'), edition: 2025, commands, ids });
    rows.push(['import of the 2025 export (through the command handlers)', `${(imported.milliseconds / 1000).toFixed(1)} s`, 'n/a']);
    const head = await store.headPosition();
    const replays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await rebuildReadModels(db, store, projections);
      replays.push(result.events / (result.milliseconds / 1000));
    }
    const bestReplay = Math.max(...replays);
    rows.push([`replay throughput (${head} events, all projections, best of 3)`, `${Math.round(bestReplay)} events/s`, '>= 20 000 events/s']);

    // 3. Projection lag at 100 appends/s through BullMQ.
    const prefix = `bench${Date.now()}`;
    const publisher = new WakeUpPublisher({ redisUrl, prefix });
    const projector = await startProjector({ db, store, projections, redisUrl, prefix, sweepIntervalMs: 60_000 });
    const lags: number[] = [];
    const pending = new Map<number, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching || pending.size > 0) {
        const checkpoints = await db.withSchema('rm').selectFrom('checkpoints').select(['position']).execute();
        const covered = Math.min(...checkpoints.map((c) => c.position));
        const now = performance.now();
        for (const [position, at] of pending) {
          if (position <= covered) { lags.push(now - at); pending.delete(position); }
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const participants = await db.withSchema('rm').selectFrom('team_members').select('participant_id').limit(50).execute();
    const seconds = 10;
    const rate = 100;
    const tStart = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < seconds * rate; i++) {
      const due = tStart + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push((async () => {
        const result = await commands.addEntry({
          participantId: participants[i % participants.length]!.participant_id, distance: 1.25, entryType: 'WALK', performedAt: '2025-04-20',
        }, { actor: SYSTEM, metadata: { commandId: randomUUID(), correlationId: 'bench', causationId: null } });
        pending.set(result.position, performance.now());
        void publisher.wake(result.position);
      })());
    }
    await Promise.all(inFlight);
    const achieved = (seconds * rate) / ((performance.now() - tStart) / 1000);
    watching = false;
    await watcher;
    lags.sort((a, b) => a - b);
    rows.push([`projection lag at ${Math.round(achieved)} appends/s (${lags.length} appends): p50`, `${percentile(lags, 50).toFixed(1)} ms`, 'n/a']);
    rows.push(['projection lag p95', `${percentile(lags, 95).toFixed(1)} ms`, 'n/a']);
    rows.push(['projection lag p99', `${percentile(lags, 99).toFixed(1)} ms`, '< 250 ms']);
    await projector.close();
    await publisher.close();
    await db.destroy();

    // 4. The home route's JavaScript.
    const home = measureHomeRoute();
    rows.push([`home route JavaScript, gzipped: at start (${home.files} files with the map)`, `${home.initialJsKb.toFixed(1)} KB`, 'n/a']);
    rows.push(['home route JavaScript, gzipped: with the lazy route map and geodata', `${home.totalJsKb.toFixed(1)} KB`, '<= 250 KB']);

    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(`\n${'measure'.padEnd(width)}  ${'result'.padStart(16)}  target`);
    for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(16)}  ${target}`);
  } finally {
    await servers.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
