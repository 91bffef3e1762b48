/**
 * Projection lag under a steady write load. Unit: ms (p50 / p95 / p99).
 *
 * Entries are added through the CommandService on an open-loop schedule of `rate` per second
 * (each started at its due time, whether or not earlier ones have answered; 50 participants of the
 * imported edition, SYSTEM actor), and after each append the projector is woken through BullMQ as
 * in production (WakeUpPublisher → the projector's queues → `startProjector`'s workers, in this
 * process). Lag of one append = time from its answer until every projection's checkpoint
 * (rm.checkpoints, polled every 2 ms) covers its global position. The achieved rate is printed
 * too: on a loaded machine the schedule may fall behind.
 *
 * Target: p99 ≤ 100 ms at 500 appends/s. No peer.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CommandService } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import { startProjector } from '@sinilill/projector';
import { projections, type ReadModelDatabase } from '@sinilill/read-models';
import { percentile, progress, times, verdict, type Row } from './report';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/** The ceiling for the p99 lag, ms, and the rate it is judged at, appends/s. */
export const LAG_TARGET = { p99Ms: 100, rate: 500 } as const;

export interface LagFigures {
  rate: number;
  achieved: number;
  appends: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * Adds `rate × seconds` entries at `rate` per second with the projector running; the lag of
 * each. `performedAt` must be a day the CommandService's clock accepts entries for.
 */
export async function measureProjectionLag(options: {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  commands: CommandService;
  redisUrl: string;
  rate: number;
  seconds: number;
  performedAt: string;
}): Promise<LagFigures> {
  const { db, store, commands, redisUrl, rate, seconds } = options;
  progress(`projection lag: ${rate} appends/s for ${seconds} s through BullMQ`);
  const prefix = `benchlag${Date.now()}`;
  const publisher = new WakeUpPublisher({ redisUrl, prefix });
  const projector = await startProjector({ db, store, projections, redisUrl, prefix, sweepIntervalMs: 60_000 });
  try {
    const lags: number[] = [];
    const pending = new Map<number, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching || pending.size > 0) {
        const checkpoints = await db.withSchema('rm').selectFrom('checkpoints').select(['position']).execute();
        const covered = Math.min(...checkpoints.map((c) => Number(c.position)));
        const now = performance.now();
        for (const [position, at] of pending) {
          if (position <= covered) { lags.push(now - at); pending.delete(position); }
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
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
        pending.set(result.position, performance.now());
        void publisher.wake(result.position);
      })());
    }
    await Promise.all(inFlight);
    const achieved = total / ((performance.now() - started) / 1000);
    watching = false;
    await watcher;
    lags.sort((a, b) => a - b);
    return { rate, achieved, appends: lags.length, p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99) };
  } finally {
    await projector.close();
    await publisher.close();
  }
}

export function lagRows(lag: LagFigures): Row[] {
  const judged = lag.rate === LAG_TARGET.rate;
  return [
    {
      measure: `projection lag at ${lag.rate} appends/s (achieved ${Math.round(lag.achieved)}/s, ${lag.appends} appends): p50 / p95`,
      result: `${lag.p50.toFixed(1)} / ${lag.p95.toFixed(1)} ms`,
      ratio: '',
      target: '',
    },
    {
      measure: 'projection lag p99',
      result: `${lag.p99.toFixed(1)} ms`,
      ratio: `${times(lag.p99, LAG_TARGET.p99Ms)} limit (no peer)`,
      target: `≤ ${LAG_TARGET.p99Ms} ms at ${LAG_TARGET.rate}/s${judged ? ` (${verdict(lag.p99 <= LAG_TARGET.p99Ms)})` : ''}`,
    },
  ];
}
