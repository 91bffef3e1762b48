/**
 * The 2025 edition: its import and the replay of its log (issue 15 item 7).
 *
 * - Import. Unit: events/s and seconds. The 2025 export (infra/seed/edition-2025: teams,
 *   participants with their payments, entries) imported through the command handlers by the CLI's
 *   `importEdition` (as `npm run import` does) into a fresh, migrated database; events = the log's
 *   head position after the import minus before it (the database is fresh, so: the head), over the
 *   import's own wall time. Target (issue 15): ≥ 20 000 events/s. No peer.
 * - Replay. Unit: events/s. Every read model rebuilt from the whole log into fresh tables and
 *   swapped in (`rebuildReadModels` with all projections, as `npm run replay` does), the best of
 *   3 runs; events = the log's events read. Target: ≥ 20 000 events/s. No peer.
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { CommandService, IdAllocator } from '@sinilill/commands';
import { repoRoot } from '@sinilill/config';
import type { EventStore } from '@sinilill/event-store';
import { importEdition } from '@sinilill/cli';
import { projections, rebuildReadModels, type ReadModelDatabase } from '@sinilill/read-models';
import { grouped, progress, times, verdict, type Row } from './report';

/** Issue 15's floor for the import and for the replay, events/s. */
export const EDITION_TARGET_EVENTS_PER_SECOND = 20_000;

export interface ImportFigures {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/** Imports the 2025 export through `commands`; the events it appended per second of its run. */
export async function measureImport(options: { commands: CommandService; ids: IdAllocator; store: EventStore }): Promise<ImportFigures> {
  progress('importing the 2025 export through the command handlers');
  const before = await options.store.headPosition();
  const imported = await importEdition({ dir: join(repoRoot, 'infra/seed/edition-2025'), edition: 2025, commands: options.commands, ids: options.ids });
  const events = (await options.store.headPosition()) - before;
  const seconds = imported.milliseconds / 1000;
  return { events, seconds, eventsPerSecond: events / seconds };
}

export interface ReplayFigures {
  events: number;
  /** events/s of each run. */
  runs: number[];
  best: number;
}

/** Rebuilds every read model from the log `runs` times; events/s of each and the best. */
export async function measureReplay(db: Kysely<ReadModelDatabase>, store: EventStore, runs = 3): Promise<ReplayFigures> {
  const rates: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    progress(`replay ${i + 1}/${runs}: every projection from the whole log`);
    const result = await rebuildReadModels(db, store, projections);
    events = result.events;
    rates.push(result.events / (result.milliseconds / 1000));
  }
  return { events, runs: rates, best: Math.max(...rates) };
}

/** What the table's import and replay rows cannot say. */
export const EDITION_NOTES: readonly string[] = [
  'import and replay count only the 2025 edition\'s events (the append peers write to another database); bench runs before issue 15 '
  + 'replayed 5 000 BenchHappened events with them, which no projection reads, so their replay rates are not comparable.',
];

export function editionRows(imported: ImportFigures, replay: ReplayFigures): Row[] {
  const target = EDITION_TARGET_EVENTS_PER_SECOND;
  return [
    {
      measure: `import of the 2025 export through the command handlers (${grouped(imported.events)} events)`,
      result: `${grouped(imported.eventsPerSecond)} events/s (${imported.seconds.toFixed(1)} s)`,
      ratio: `${times(imported.eventsPerSecond, target)} target (no peer)`,
      target: `≥ ${grouped(target)} events/s (${verdict(imported.eventsPerSecond >= target)})`,
    },
    {
      measure: `replay, all projections into fresh tables (${grouped(replay.events)} events, best of ${replay.runs.length})`,
      result: `${grouped(replay.best)} events/s`,
      ratio: `${times(replay.best, target)} target (no peer)`,
      target: `≥ ${grouped(target)} events/s (${verdict(replay.best >= target)})`,
    },
  ];
}
