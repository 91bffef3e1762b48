import { describe, expect, it } from 'vitest';
import { parseTeamChange } from './use-team-live';

describe('parseTeamChange', () => {
  it('reads a change of the team', () => {
    expect(parseTeamChange('{"teamId":7,"position":42}', 7)).toEqual({ teamId: 7, position: 42 });
  });

  it('ignores other teams, bad positions and garbage', () => {
    expect(parseTeamChange('{"teamId":8,"position":42}', 7)).toBeNull();
    expect(parseTeamChange('{"teamId":7,"position":"42"}', 7)).toBeNull();
    expect(parseTeamChange('{"teamId":7}', 7)).toBeNull();
    expect(parseTeamChange('null', 7)).toBeNull();
    expect(parseTeamChange('keep-alive', 7)).toBeNull();
  });
});
