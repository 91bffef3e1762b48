/**
 * Projection lag under a steady write load. Unit: ms (p50 / p95 / p99).
 *
 * Entries are added through the CommandService on an open-loop schedule of `rate` per second
 * (each started at its due time, whether or not earlier ones have answered; 50 participants of the
 * imported edition, SYSTEM actor), and after each append the projector is woken through BullMQ as
 * in production (WakeUpPublisher → the projector's queues → the workers of a projector process:
 * services/projector/src/server.ts as a child process, as production runs it beside the command
 * API, not on the event loop that sends the commands; runs kept before 2026-12-05 ran it in the
 * bench's own process). Lag of one append = time from its answer until every projection's committed batches
 * cover its global position, as a LISTEN on the read models' change channel hears them (the one
 * the query API's live team pages and read-your-writes waits hear: a batch's notification is
 * delivered on its commit); 0 when they did before the answer. (Runs kept before 2026-12-05
 * polled rm.checkpoints every 2 ms instead: 500 queries a second beside the load measured.) The
 * achieved rate is printed too: on a loaded machine the schedule may fall behind.
 *
 * Measured at LAG_RATES in turn, on one projector process (caught up before each rate), so that
 * the lag is seen below, at and above the target's rate: at 1 000 appends/s a 2-core machine
 * shared with PostgreSQL is past what it can apply as fast as it comes (the achieved rate says
 * so), and the lag shows how the backlog is worked off.
 *
 * Target: p99 ≤ 100 ms at 500 appends/s (issue of the last evening of April). No peer: the
 * figures at the other rates carry no verdict.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { CommandService } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import { repoRoot } from '@sinilill/config';
import type { EventStore } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import pg from 'pg';
import {
  EVERY_PROJECTION, READ_MODEL_CHANGES_CHANNEL, parseReadModelChange, projections, readCheckpoints, type ReadModelDatabase,
} from '@sinilill/read-models';
import { percentile, progress, times, verdict, type Row } from './report';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** The ceiling for the p99 lag, ms, and the rate it is judged at, appends/s. */
export const LAG_TARGET = { p99Ms: 100, rate: 500 } as const;

/** The rates the lag is measured at, appends/s. */
export const LAG_RATES = [100, 500, 1000] as const;

export interface LagFigures {
  rate: number;
  achieved: number;
  appends: number;
  p50: number;
  p95: number;
  p99: number;
}

/** A projector process (services/projector/src/server.ts) for the lag, and how to stop it. */
export interface ProjectorProcess {
  /** BullMQ key prefix its queues use. */
  prefix: string;
  stop(): Promise<void>;
}

/**
 * Starts services/projector/src/server.ts on `databaseUrl` and `redisUrl` with a queue prefix of
 * its own, a sweep a minute apart (every run below is a wake-up's) and its health port on any free
 * port; resolves once it logged 'ready' (caught up).
 * @throws Error with its output when it exits before that.
 */
export async function startProjectorProcess(databaseUrl: string, redisUrl: string): Promise<ProjectorProcess> {
  const prefix = `benchlag${Date.now()}`;
  const dataDir = mkdtempSync(join(repoRoot, '.tmp-bench-lag-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'services/projector/src/server.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env, NODE_ENV: 'development', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, DATA_DIR: dataDir, BULLMQ_PREFIX: prefix,
      SWEEP_INTERVAL_MS: '60000', PROJECTOR_PORT: '0', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
      if (/"msg":"ready"/.test(output)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`projection lag: the projector process exited (${code}) before it was ready:\n${output.slice(-3000)}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { prefix, stop };
}

/**
 * Adds `rate × seconds` entries at `rate` per second with the projector running; the lag of
 * each. `performedAt` must be a day the CommandService's clock accepts entries for.
 */
export async function measureProjectionLag(options: {
  db: Kysely<ReadModelDatabase>;
  /** The database of `db`, for the LISTEN. */
  databaseUrl: string;
  store: EventStore;
  commands: CommandService;
  redisUrl: string;
  /** The projector process the lag is measured on (startProjectorProcess). */
  projector: ProjectorProcess;
  rate: number;
  seconds: number;
  performedAt: string;
}): Promise<LagFigures> {
  const { db, commands, redisUrl, rate, seconds } = options;
  const names = projections.map((p) => p.name);
  progress(`projection lag: ${rate} appends/s for ${seconds} s through BullMQ to a projector process`);
  const publisher = new WakeUpPublisher({ redisUrl, prefix: options.projector.prefix });
  const listener = new pg.Client({ connectionString: options.databaseUrl });
  await listener.connect();
  try {
    const lags: number[] = [];
    const pending = new Map<number, number>();
    const known = new Map<string, number>();
    const covered = () => Math.min(...names.map((name) => known.get(name) ?? 0));
    let allCovered: (() => void) | null = null;
    const settle = () => {
      const upTo = covered();
      const now = performance.now();
      for (const [position, at] of pending) {
        if (position <= upTo) { lags.push(now - at); pending.delete(position); }
      }
      if (pending.size === 0) allCovered?.();
    };
    listener.on('notification', (message) => {
      const change = parseReadModelChange(message.payload);
      if (!change) return;
      const moved = change.projection === EVERY_PROJECTION ? names : [change.projection];
      for (const name of moved) known.set(name, Math.max(known.get(name) ?? 0, change.position));
      settle();
    });
    await listener.query(`LISTEN ${READ_MODEL_CHANGES_CHANNEL}`);
    for (const [name, position] of Object.entries(await readCheckpoints(db))) known.set(name, Math.max(known.get(name) ?? 0, position));
    // Caught up before the first append (the rate before this one may have left a backlog).
    const head = await options.store.headPosition();
    if (covered() < head) {
      await publisher.wake(head);
      await new Promise<void>((resolve) => {
        const check = () => { if (covered() >= head) { listener.off('notification', check); resolve(); } };
        listener.on('notification', check);
        check();
      });
    }
    const participants = await db.withSchema('rm').selectFrom('team_members').select('participant_id').orderBy('participant_id').limit(50).execute();
    if (participants.length === 0) throw new Error('projection lag: no participants in rm.team_members (import and replay first)');
    const total = seconds * rate;
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push((async () => {
        const result = await commands.addEntry({
          participantId: participants[i % participants.length]!.participant_id, distance: 1.25, entryType: 'WALK', performedAt: options.performedAt,
        }, { actor: SYSTEM, metadata: { commandId: randomUUID(), correlationId: 'bench', causationId: null } });
        if (result.position <= covered()) lags.push(0);
        else pending.set(result.position, performance.now());
        void publisher.wake(result.position);
      })());
    }
    await Promise.all(inFlight);
    const achieved = total / ((performance.now() - started) / 1000);
    if (pending.size > 0) await new Promise<void>((resolve) => { allCovered = resolve; settle(); });
    lags.sort((a, b) => a - b);
    return { rate, achieved, appends: lags.length, p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99) };
  } finally {
    await publisher.close();
    await listener.end();
  }
}

export function lagRows(lag: LagFigures): Row[] {
  const judged = lag.rate === LAG_TARGET.rate;
  return [
    {
      measure: `projection lag at ${lag.rate} appends/s: p50 / p95`,
      result: `${lag.p50.toFixed(1)} / ${lag.p95.toFixed(1)} ms (achieved ${Math.round(lag.achieved)}/s, ${lag.appends} appends)`,
      ratio: '',
      target: '',
    },
    {
      measure: `projection lag p99 at ${lag.rate} appends/s`,
      result: `${lag.p99.toFixed(1)} ms`,
      ratio: `${times(lag.p99, LAG_TARGET.p99Ms)} limit (no peer)`,
      target: judged ? `≤ ${LAG_TARGET.p99Ms} ms (${verdict(lag.p99 <= LAG_TARGET.p99Ms)})` : `(judged at ${LAG_TARGET.rate}/s only)`,
    },
  ];
}
