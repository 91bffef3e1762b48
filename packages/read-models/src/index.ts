/** Read models: Kysely table types, migrations, the projections and their runner. */
export * from './schema';
export * from './migrations';
export * from './database';
export * from './projection';
export * from './runner';
export * from './changes';
export { teamStatsProjection } from './team-stats/projection';
export { teamDirectoryProjection } from './team-directory/projection';
export { settingsProjection, evolveSettings } from './settings/projection';
export { deriveTeamFigures } from './team-stats/evolve';
import { teamDirectoryProjection } from './team-directory/projection';
import { teamStatsProjection } from './team-stats/projection';
import { settingsProjection } from './settings/projection';
import type { Projection } from './projection';

/** Every projection the projector runs, by name (names match @sinilill/messaging's queues). */
export const projections: readonly Projection[] = [teamStatsProjection, teamDirectoryProjection, settingsProjection];
