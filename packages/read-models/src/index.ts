/** Read models: Kysely table types, migrations, the projections and their runner. */
export * from './schema';
export * from './migrations';
export * from './database';
export * from './projection';
export * from './runner';
export * from './changes';
export * from './replay';
export { teamStatsProjection, createTeamStatsProjection } from './team-stats/projection';
export { teamDirectoryProjection } from './team-directory/projection';
export { adminDirectoryProjection } from './admin-directory/projection';
export { paymentsProjection, createPaymentsProjection } from './payments/projection';
export { settingsProjection, evolveSettings } from './settings/projection';
export { deriveTeamFigures } from './team-stats/evolve';
import { teamDirectoryProjection } from './team-directory/projection';
import { createTeamStatsProjection } from './team-stats/projection';
import { settingsProjection } from './settings/projection';
import { adminDirectoryProjection } from './admin-directory/projection';
import { createPaymentsProjection } from './payments/projection';
import type { Projection } from './projection';
import { currentEdition, type Edition } from '@sinilill/domain';

/**
 * Every projection the projector runs, computing route figures from `edition` (D9: the edition is
 * data; a replay with another route recomputes prestige, in-lap distance and flowers). Names
 * match @sinilill/messaging's queues.
 */
export function createProjections(edition: Edition): readonly Projection[] {
  return [
    createTeamStatsProjection(edition),
    teamDirectoryProjection,
    settingsProjection,
    adminDirectoryProjection,
    createPaymentsProjection(edition),
  ];
}

/** Every projection the projector runs, for the edition the application runs. */
export const projections: readonly Projection[] = createProjections(currentEdition);
