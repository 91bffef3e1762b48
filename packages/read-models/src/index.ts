/** Read models: Kysely table types, migrations, the projections and their runner. */
export * from './schema';
export * from './migrations';
export * from './database';
export * from './projection';
export * from './runner';
export * from './rebuild';
export * from './checksums';
export * from './changes';
export * from './replay';
export * from './parking';
export * from './parked-events';
export { teamStatsProjection, createTeamStatsProjection } from './team-stats/projection';
export { teamDirectoryProjection } from './team-directory/projection';
export { adminDirectoryProjection } from './admin-directory/projection';
export { paymentsProjection, createPaymentsProjection } from './payments/projection';
export { editionsProjection, evolveEditions, EDITIONS_EVENTS, type EditionRow } from './editions/projection';
export * from './projection-editions';
export * from './edition-catalog';
export { settingsProjection, evolveSettings } from './settings/projection';
export { deriveTeamFigures, teamStatsHandlers } from './team-stats/evolve';
export { teamDirectoryHandlers, teamEntryRows } from './team-directory/evolve';
import { teamDirectoryProjection } from './team-directory/projection';
import { createTeamStatsProjection } from './team-stats/projection';
import { settingsProjection } from './settings/projection';
import { adminDirectoryProjection } from './admin-directory/projection';
import { createPaymentsProjection } from './payments/projection';
import { editionsProjection } from './editions/projection';
import type { Kysely } from 'kysely';
import type { Projection } from './projection';
import type { ReadModelDatabase } from './schema';
import { readCheckpoints } from './runner';

/**
 * Every projection the projector runs. Route figures and fees follow each team's and
 * participant's own edition, folded from the log's edition events (docs/decisions/0009: the
 * edition is data; 0079: each projection keeps the editions it computes with). Names match
 * @sinilill/messaging's queues.
 */
export function createProjections(): readonly Projection[] {
  return [
    createTeamStatsProjection(),
    teamDirectoryProjection,
    settingsProjection,
    adminDirectoryProjection,
    createPaymentsProjection(),
    editionsProjection,
  ];
}

/** Every projection the projector runs. */
export const projections: readonly Projection[] = createProjections();

/**
 * The lowest checkpoint over all projections: every read model reflects at least this global
 * position (read-your-writes, docs/decisions/0006; the launcher's "ready").
 */
export async function projectedPosition(db: Kysely<ReadModelDatabase>): Promise<number> {
  const checkpoints = await readCheckpoints(db);
  return Math.min(...projections.map((p) => checkpoints[p.name] ?? 0));
}

/**
 * Waits until the projected position (every projection's checkpoint) is at least `position`,
 * polling every `pollMs`, at most `timeoutMs`. The launcher waits so for the projections at start
 * (services/cli start.ts). The query API's read-your-writes (`x-min-position`, docs/decisions/0006) does not
 * poll: it waits for its route's projections only and is woken by their change notifications
 * (services/query-api/src/live.ts waitForProjections).
 * @returns the projected position and whether it reached `position` within `timeoutMs`.
 */
export async function waitForPosition(
  db: Kysely<ReadModelDatabase>,
  position: number,
  timeoutMs: number,
  pollMs = 15,
): Promise<{ position: number; reached: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const current = await projectedPosition(db);
    if (current >= position) return { position: current, reached: true };
    if (performance.now() >= deadline) return { position: current, reached: false };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
