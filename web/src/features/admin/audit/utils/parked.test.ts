import type { ParkedEvent, ParkedEventsAnswer } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { outcomeOf, parkKey, projectionsWithParks, totalParked } from './parked';

const park = (projection: string, position: number): ParkedEvent => ({
  projection, position, eventId: `e${position}`, eventType: 'ParticipantRegistered', errorCode: '22021',
  error: 'invalid byte sequence for encoding "UTF8": 0x00', parkedAt: '2025-04-15T09:00:00.000Z', attempts: 1,
  status: 'parked', resolvedAt: null, reason: null,
});
const answer = (events: ParkedEvent[]): ParkedEventsAnswer => ({
  events,
  counts: [
    { projection: 'team-stats', parked: 0 },
    { projection: 'team-directory', parked: events.filter((e) => e.projection === 'team-directory').length },
    { projection: 'admin-directory', parked: events.filter((e) => e.projection === 'admin-directory').length },
  ],
});

describe('parked events in the console', () => {
  it('counts the open parks and names the projections that have some', () => {
    const list = answer([park('team-directory', 7), park('admin-directory', 7), park('team-directory', 9)]);
    expect(totalParked(list)).toBe(3);
    expect(projectionsWithParks(list)).toEqual([{ projection: 'admin-directory', parked: 1 }, { projection: 'team-directory', parked: 2 }]);
    expect(parkKey(park('team-directory', 7))).toBe('team-directory@7');
  });

  it('a retry worked when the park is no longer open, and failed again when it still is; a skip resolves', () => {
    const target = park('team-directory', 7);
    expect(outcomeOf('retry', target, answer([park('admin-directory', 7)]))).toBe('retried');
    expect(outcomeOf('retry', target, answer([{ ...target, attempts: 2 }]))).toBe('still-parked');
    expect(outcomeOf('skip', target, answer([]))).toBe('skipped');
  });
});
