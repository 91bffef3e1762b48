import { describe, expect, test } from 'vitest';
import { MAX_NOTIFIED_TEAMS, changedTeams, parseReadModelChange } from './changes';

const event = (data: unknown) => ({ data });

describe('changedTeams: which teams a batch touches', () => {
  test('the distinct team ids, ascending', () => {
    expect(changedTeams([event({ teamId: 5 }), event({ teamId: 2 }), event({ teamId: 5, entryId: 1 })])).toEqual([2, 5]);
  });
  test('an empty batch touches no team', () => {
    expect(changedTeams([])).toEqual([]);
  });
  test('an event without a team id (a payment mark, a settings change) means any team: null', () => {
    expect(changedTeams([event({ teamId: 5 }), event({ participantId: 11, isPaid: true })])).toBeNull();
    expect(changedTeams([event({ registrationEnabled: false, changedAt: 'x' })])).toBeNull();
    expect(changedTeams([event({ teamId: '5' })])).toBeNull();
  });
  test(`more than ${MAX_NOTIFIED_TEAMS} teams is null (the payload must stay under 8000 bytes)`, () => {
    const many = Array.from({ length: MAX_NOTIFIED_TEAMS }, (_, i) => event({ teamId: 1_000_000_000 + i }));
    const named = changedTeams(many);
    expect(named).toHaveLength(MAX_NOTIFIED_TEAMS);
    expect(JSON.stringify({ projection: 'team-directory', position: Number.MAX_SAFE_INTEGER, teams: named }).length).toBeLessThan(8000);
    expect(changedTeams([...many, event({ teamId: 1 })])).toBeNull();
  });
});

describe('parseReadModelChange', () => {
  test('reads what the runner sends', () => {
    expect(parseReadModelChange('{"projection":"team-stats","position":42,"teams":[1,2]}')).toEqual({ projection: 'team-stats', position: 42, teams: [1, 2] });
    expect(parseReadModelChange('{"projection":"*","position":42,"teams":null}')).toEqual({ projection: '*', position: 42, teams: null });
  });
  test.each([
    ['no payload', undefined],
    ['not JSON', 'hello'],
    ['not an object', '42'],
    ['no position', '{"projection":"x","teams":null}'],
    ['a negative position', '{"projection":"x","position":-1,"teams":null}'],
    ['teams not integers', '{"projection":"x","position":1,"teams":["1"]}'],
    ['teams missing', '{"projection":"x","position":1}'],
  ])('ignores %s', (_name, payload) => {
    expect(parseReadModelChange(payload)).toBeNull();
  });
});
