export { teamDecider, createTeamDecider, ICON_REFERENCE_MAX } from './decider';
export type { ChangeTeamPublicAttributes, RegisterTeam, ReplaceJoinCode, TeamCommand, TeamState } from './decider';
