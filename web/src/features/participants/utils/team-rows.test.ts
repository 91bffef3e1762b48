import type { TeamStat } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { teamRows } from './team-rows';

function stat(team: TeamStat['team'], fields: Partial<Omit<TeamStat, 'team'>> = {}): TeamStat {
  return { team, distance: 0, participants: 1, dailyDistance: 0, prestige: 0, inLapDistance: 0, blueFlowers: 0, ...fields };
}

describe('teamRows', () => {
  it('keeps what the table shows, in the answer\'s order', () => {
    const teams = [
      stat({ id: 7, team_name: 'Tartu Tammed', icon: '/api/images/a.webp', description: 'Jookseme igal hommikul.' }, { distance: 1894, participants: 12, blueFlowers: 101, raised_cents: 123_450 }),
      stat({ id: 3, team_name: 'Pärnu Pääsukesed', icon: null, description: '' }, { distance: 40, participants: 3, blueFlowers: 2 }),
    ];
    expect(teamRows(teams)).toEqual([
      { id: '7', name: 'Tartu Tammed', icon: '/api/images/a.webp', description: 'Jookseme igal hommikul.', distance: 1894, participants: 12, blueFlowers: 101, raised: 123_450, raisedUnknown: 0 },
      { id: '3', name: 'Pärnu Pääsukesed', icon: null, description: '', distance: 40, participants: 3, blueFlowers: 2, raised: 0, raisedUnknown: 0 },
    ]);
  });

  it('treats an empty icon as none and a blank description as none', () => {
    const [row] = teamRows([stat({ id: 1, team_name: 'Tiim', icon: ' ', description: '  \n ' })]);
    expect(row).toMatchObject({ icon: null, description: '' });
  });

  it('trims the description but keeps its line breaks inside', () => {
    const [row] = teamRows([stat({ id: 1, team_name: 'Tiim', icon: null, description: '  Esimene rida\nTeine rida  ' })]);
    expect(row?.description).toBe('Esimene rida\nTeine rida');
  });

  it('gives no rows for no teams', () => {
    expect(teamRows([])).toEqual([]);
  });
});
