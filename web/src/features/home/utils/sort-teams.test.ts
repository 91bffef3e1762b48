import type { TeamStat } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { perMember, sortFigure, sortTeams, topTeams } from './sort-teams';

function team(id: number, name: string, fields: Partial<Omit<TeamStat, 'team'>> = {}): TeamStat {
  return {
    team: { id, team_name: name, icon: null, description: '' },
    distance: 0,
    participants: 1,
    dailyDistance: 0,
    prestige: 0,
    inLapDistance: fields.distance ?? 0,
    blueFlowers: 1,
    ...fields,
  };
}

// Big team: most km in total, fewest per member; small team: most per member.
const big = team(1, 'Suured', { distance: 1000, participants: 20, blueFlowers: 10, dailyDistance: 40 });
const small = team(2, 'Väikesed', { distance: 300, participants: 2, blueFlowers: 6, dailyDistance: 5 });
const middle = team(3, 'Keskmised', { distance: 600, participants: 10, blueFlowers: 8, dailyDistance: 30 });

describe('sortFigure', () => {
  it('is distance per member, flowers, or today per member', () => {
    expect(sortFigure(big, 0)).toBe(50);
    expect(sortFigure(big, 1)).toBe(10);
    expect(sortFigure(big, 2)).toBe(2);
  });

  it('is 0 per member for a team without members', () => {
    expect(perMember(100, 0)).toBe(0);
    expect(sortFigure(team(9, 'Tühi', { distance: 100, participants: 0 }), 0)).toBe(0);
  });
});

describe('sortTeams', () => {
  it('given state 0, ranks by distance per member', () => {
    expect(sortTeams([big, small, middle], 0).map((t) => t.team.id)).toEqual([2, 3, 1]);
  });

  it('given state 1, ranks by blue flowers', () => {
    expect(sortTeams([small, middle, big], 1).map((t) => t.team.id)).toEqual([1, 3, 2]);
  });

  it("given state 2, ranks by today's distance per member", () => {
    expect(sortTeams([big, small, middle], 2).map((t) => t.team.id)).toEqual([middle, small, big].map((t) => t.team.id));
  });

  it('breaks ties by total distance, then Estonian name order, then id', () => {
    const a = team(10, 'Õunad', { distance: 100 });
    const b = team(11, 'Zeebrad', { distance: 100 });
    const c = team(12, 'Šokolaad', { distance: 100 });
    const d = team(13, 'Šokolaad', { distance: 100 });
    const e = team(14, 'Alguses', { distance: 200, participants: 2 });
    // Estonian alphabet: … S Š Z Ž T … W Õ Ä Ö Ü
    expect(sortTeams([a, b, d, c, e], 2).map((t) => t.team.id)).toEqual([14, 12, 13, 11, 10]);
  });

  it('does not modify its input', () => {
    const teams = [big, small, middle];
    sortTeams(teams, 0);
    expect(teams).toEqual([big, small, middle]);
  });
});

describe('topTeams', () => {
  it('keeps the first N', () => {
    expect(topTeams([big, small, middle], 1, 2).map((t) => t.team.id)).toEqual([1, 3]);
    expect(topTeams([big], 0, 8)).toHaveLength(1);
    expect(topTeams([big, small], 0, 0)).toEqual([]);
  });
});
