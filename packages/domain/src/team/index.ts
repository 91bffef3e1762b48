export { teamDecider, createTeamDecider } from './decider';
export type { RegisterTeam, TeamCommand, TeamState } from './decider';
