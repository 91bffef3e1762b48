/**
 * Replay at scale: on the synthetic edition's log (a million events by
 * default, edition.ts measureSyntheticImport), beside its ceiling.
 *
 * - Ceiling: a plain ordered read of the same table from Node: `SELECT <the store's columns> FROM
 *   es.events WHERE global_position > $1 ORDER BY global_position LIMIT 10000`, batch after batch,
 *   rows parsed by pg and nothing else done with them. Unit: events/s.
 * - Replay: `npm run replay` itself (the built CLI, services/cli/bin/sinilill.mjs replay, as an
 *   operator runs it, in a process of its own with the CLI's heap cap) against that database, run
 *   twice: the first builds the live read models from nothing (nothing to compare), the second is
 *   measured and compares every table with the live ones. Units: events/s as the CLI reports it
 *   (events over the whole replay: the pass, the indexes, the checksums and the swap); peak
 *   resident memory, MB, as the CLI reports it (ru_maxrss of its process); the checksum verdict.
 *   Targets: ≥ 0.4× the plain read measured in the same run (a ratio, since both move with the
 *   machine; runs kept before 2026-12-05 judged ≥ 100 000 events/s), ≤ 300 MB, every checksum
 *   matching.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from '@sinilill/config';
import { grouped, progress, times, verdict, type Row } from './report';

/** The replay's floor as a share of the plain read in the same run, and its memory ceiling, MB. */
export const REPLAY_TARGET = { shareOfCeiling: 0.4, peakRssMb: 300 } as const;

export interface ReplayScaleFigures {
  events: number;
  /** The plain ordered read of es.events, events/s. */
  ceiling: number;
  /** The measured (second) replay's events/s, as the CLI printed it. */
  replay: number;
  /** Its seconds. */
  seconds: number;
  /** Its process's peak resident memory, MB. */
  peakRssMb: number;
  /** The CLI's checksum summary line. */
  checksums: string;
  /** The first replay (into empty read models), events/s. */
  firstReplay: number;
}

/** Reads es.events in global order, 10 000 rows per query; events/s. */
export async function plainOrderedRead(databaseUrl: string): Promise<{ events: number; eventsPerSecond: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let after = 0;
    let events = 0;
    const started = performance.now();
    for (;;) {
      const { rows } = await client.query<{ global_position: string }>(
        'SELECT global_position, event_id, stream, revision, type, schema_version, data, metadata, recorded_at FROM es.events WHERE global_position > $1 ORDER BY global_position LIMIT 10000',
        [after]);
      if (rows.length === 0) break;
      events += rows.length;
      after = Number(rows[rows.length - 1]!.global_position);
    }
    return { events, eventsPerSecond: events / ((performance.now() - started) / 1000) };
  } finally {
    await client.end();
  }
}

/** What one run of the CLI's replay printed. */
interface CliReplay { events: number; seconds: number; eventsPerSecond: number; peakRssMb: number; checksums: string }

/** Runs `sinilill replay` against `databaseUrl` and reads its figures from its output. */
async function cliReplay(databaseUrl: string): Promise<CliReplay> {
  const child = spawn(process.execPath, [join(repoRoot, 'services/cli/bin/sinilill.mjs'), 'replay'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'development', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const replayed = /replayed (\d+) events up to position \d+ in ([\d.]+) s \((\d+) events\/s\)/.exec(output);
  const memory = /peak resident memory: (\d+) MB/.exec(output);
  const checksums = /checksums: [^\n]*/.exec(output);
  if (code !== 0 || !replayed || !memory) throw new Error(`replay at scale: the CLI's replay failed (exit ${code}):\n${output.slice(-2000)}`);
  return {
    events: Number(replayed[1]), seconds: Number(replayed[2]), eventsPerSecond: Number(replayed[3]),
    peakRssMb: Number(memory[1]), checksums: checksums?.[0] ?? 'checksums: (not printed)',
  };
}

/** The ceiling, then two replays through the CLI on the imported database of `databaseUrl`. */
export async function measureReplayAtScale(databaseUrl: string): Promise<ReplayScaleFigures> {
  progress('replay at scale: a plain ordered read of es.events (the ceiling)');
  const ceiling = await plainOrderedRead(databaseUrl);
  progress('replay at scale: npm run replay into empty read models (not measured: nothing to compare)');
  const first = await cliReplay(databaseUrl);
  progress('replay at scale: npm run replay again, measured, compared with the live read models');
  const second = await cliReplay(databaseUrl);
  return {
    events: second.events, ceiling: ceiling.eventsPerSecond, replay: second.eventsPerSecond, seconds: second.seconds,
    peakRssMb: second.peakRssMb, checksums: second.checksums, firstReplay: first.eventsPerSecond,
  };
}

/** The table's rows for the replay at scale. */
export function replayScaleRows(figures: ReplayScaleFigures): Row[] {
  const share = REPLAY_TARGET.shareOfCeiling;
  return [
    {
      measure: `plain ordered read of es.events, ${grouped(figures.events)} events (the replay's ceiling)`,
      result: `${grouped(figures.ceiling)} events/s`,
      ratio: '(peer)',
      target: '—',
    },
    {
      measure: `replay (npm run replay) of ${grouped(figures.events)} events into fresh tables, compared with the live ones`,
      result: `${grouped(figures.replay)} events/s (${figures.seconds.toFixed(1)} s; into empty read models ${grouped(figures.firstReplay)} events/s)`,
      ratio: `${times(figures.replay, figures.ceiling)} ceiling`,
      target: `≥ ${share}× the plain read (${verdict(figures.replay >= share * figures.ceiling)})`,
    },
    {
      measure: 'replay: peak resident memory of its process',
      result: `${figures.peakRssMb} MB`,
      ratio: `${times(figures.peakRssMb, REPLAY_TARGET.peakRssMb)} limit`,
      target: `≤ ${REPLAY_TARGET.peakRssMb} MB (${verdict(figures.peakRssMb <= REPLAY_TARGET.peakRssMb)})`,
    },
    {
      measure: 'replay: read-model checksums, rebuilt vs live',
      result: figures.checksums.replace(/^checksums: /, ''),
      ratio: '—',
      target: `all match (${verdict(/all match/.test(figures.checksums))})`,
    },
  ];
}
