export { teamDecider, createTeamDecider, ICON_REFERENCE_MAX } from './decider';
export type { ChangeTeamPublicAttributes, DeleteTeam, RegisterTeam, RenameTeam, ReplaceJoinCode, TeamCommand, TeamState } from './decider';
