import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '@sinilill/event-store';
import { emptyWorkingSet, evolveTeamStats } from './evolve';

let position = 0;
const recorded = (type: string, data: object): RecordedEvent => {
  position += 1;
  return {
    id: `e${position}`, type, schemaVersion: 1, data, stream: 'team-7', revision: 0, globalPosition: position,
    recordedAt: new Date(0), metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
  };
};
const fold = (events: readonly RecordedEvent[]) => {
  const set = emptyWorkingSet();
  for (const event of events) evolveTeamStats(set, event);
  return set;
};

const registered = recorded('TeamRegistered', {
  teamId: 7, teamName: 'Tartu Tammed', description: 'Algne', joinCode: 'AAAA1111', icon: '/api/images/a.webp', registeredAt: '2025-03-01T10:00:00.000Z',
});
const changed = (data: object) => recorded('TeamPublicAttributesChanged', { teamId: 7, changedAt: '2025-04-02T08:00:00.000Z', ...data });

describe('team-stats: the public card', () => {
  test('given a registered team, when only the description changes, the icon stays', () => {
    const team = fold([registered, changed({ description: 'Uus kirjeldus' })]).teams.get(7);
    expect(team).toMatchObject({ teamName: 'Tartu Tammed', description: 'Uus kirjeldus', icon: '/api/images/a.webp' });
  });

  test('when only the icon changes, the description stays', () => {
    const team = fold([registered, changed({ icon: '/api/images/b.webp' })]).teams.get(7);
    expect(team).toMatchObject({ description: 'Algne', icon: '/api/images/b.webp' });
  });

  test('icon null removes the icon; both fields in one event both apply; the last change wins', () => {
    const team = fold([registered, changed({ icon: null }), changed({ icon: '/api/images/c.webp', description: '' }), changed({ description: 'Lõpp' })]).teams.get(7);
    expect(team).toMatchObject({ description: 'Lõpp', icon: '/api/images/c.webp' });
    expect(fold([registered, changed({ icon: null })]).teams.get(7)?.icon).toBeNull();
  });

  test('a change marks the team changed and leaves its km and members alone', () => {
    const set = fold([
      registered,
      recorded('EntryAdded', { entryId: 1, teamId: 7, participantId: 11, distance: 12.34, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z' }),
      changed({ description: 'x' }),
    ]);
    expect(set.changedTeams.has(7)).toBe(true);
    expect(set.teams.get(7)).toMatchObject({ distanceHundredths: 1234, participants: 0 });
  });
});
