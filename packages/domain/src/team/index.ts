export { teamDecider, createTeamDecider, ICON_REFERENCE_MAX, TEAM_NOTE_MAX } from './decider';
export type { ChangeTeamPublicAttributes, DeleteTeam, RecordTeamNote, RegisterTeam, RenameTeam, ReplaceJoinCode, TeamCommand, TeamState } from './decider';
