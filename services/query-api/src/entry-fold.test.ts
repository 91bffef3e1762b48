import { describe, expect, test } from 'vitest';
import { edition2025 } from '@sinilill/domain/seed';
import type { RecordedEvent } from '@sinilill/event-store';
import { entryContribution, entryContributions, latestEntryEvents, missionsBetween, TeamEntriesFold } from './entry-fold';

// 2025 mission ends (km): 7, 27, 39, 133, 251, …, 1833, 1893 (lap 1893 km).
const route = edition2025.route.missions;
const mission = (id: number, lap = 1) => ({ id, lap, name: route.find((m) => m.id === id)!.name });

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type, schemaVersion: 1, data,
    metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: `corr-${position}`, causationId: null },
    stream: `entry-${String(data.entryId)}`, revision: 0, globalPosition: position, recordedAt: new Date('2025-04-10T09:00:00Z'),
  };
}
const T = 1;
const added = (entryId: number, distance: number, teamId = T) => recorded('EntryAdded', { entryId, teamId, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-10', createdAt: '2025-04-10T08:00:00.000Z' });
const edited = (entryId: number, distance: number, teamId = T) => recorded('EntryEdited', { entryId, teamId, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-10', editedAt: '2025-04-11T08:00:00.000Z' });
const deleted = (entryId: number, teamId = T) => recorded('EntryDeleted', { entryId, teamId, participantId: 11, deletedAt: '2025-04-11T00:00:00Z' });

describe('entryContribution', () => {
  test('given the team at 20 km, when an entry of 10.5 km is added, then it reached mission 2 (27 km) and one flower', () => {
    const given = [added(1, 12.25), added(2, 7.75), recorded('TeamRenamed', { teamId: T, teamName: 'x' }), added(3, 10.5, 2)];
    const events = [...given, added(4, 10.5)];
    const what = entryContribution(T, 4, events, edition2025)!;
    expect(what).toMatchObject({
      entryId: 4, teamId: T, participantId: 11, change: 'added',
      at: '2025-04-10T08:00:00.000Z',
      entryDistance: { before: null, after: 10.5 },
      distance: { before: 20, after: 31, gained: 11 },
      distanceExact: { before: 20, after: 30.5, gained: 10.5 },
      blueFlowers: { before: 2, after: 3, gained: 1 },
      prestige: { before: 0, after: 0, gained: 0 },
      lap: 1,
    });
    expect(what.missionsReached).toEqual([mission(2)]);
    expect(what.missionsLost).toEqual([]);
  });

  test('given the team at 1880 km, when 20 km are added, then it completed the lap: mission 24, prestige 1, the lap bonus', () => {
    const events = [added(1, 1880), added(2, 20)];
    const what = entryContribution(T, 2, events, edition2025)!;
    expect(what.distance).toEqual({ before: 1880, after: 1900, gained: 20 });
    expect(what.prestige).toEqual({ before: 0, after: 1, gained: 1 });
    expect(what.lap).toBe(2);
    // 1880 km: 1 + 23 missions = 24; 1900 km: 1 + 100 + mission 1 of lap 2 (7 km) = 102.
    expect(what.blueFlowers).toEqual({ before: 24, after: 102, gained: 78 });
    expect(what.missionsReached).toEqual([mission(24, 1), mission(1, 2)]);
  });

  test('given the team at 30 km, when 5 km are added, then it crossed nothing', () => {
    const what = entryContribution(T, 2, [added(1, 30), added(2, 5)], edition2025)!;
    expect(what.distance).toEqual({ before: 30, after: 35, gained: 5 });
    expect(what.blueFlowers.gained).toBe(0);
    expect(what.missionsReached).toEqual([]);
    expect(what.missionsLost).toEqual([]);
  });

  test('given an entry added and later edited, then what it did is the edit\'s effect, as of the edit', () => {
    // 20 → +5 (25 km) → another entry +1 (26 km) → the edit 5 → 8 (29 km): crosses 27 km.
    const events = [added(1, 20), added(2, 5), added(3, 1), edited(2, 8), added(4, 100)];
    const what = entryContribution(T, 2, events, edition2025)!;
    expect(what.change).toBe('edited');
    expect(what.at).toBe('2025-04-11T08:00:00.000Z');
    expect(what.entryDistance).toEqual({ before: 5, after: 8 });
    expect(what.distance).toEqual({ before: 26, after: 29, gained: 3 });
    expect(what.missionsReached).toEqual([mission(2)]);
  });

  test('given an entry that is deleted, then it lost what it had reached', () => {
    const events = [added(1, 25), added(2, 4), deleted(2)];
    const what = entryContribution(T, 2, events, edition2025)!;
    expect(what.change).toBe('deleted');
    expect(what.entryDistance).toEqual({ before: 4, after: null });
    expect(what.distance).toEqual({ before: 29, after: 25, gained: -4 });
    expect(what.blueFlowers).toEqual({ before: 3, after: 2, gained: -1 });
    expect(what.missionsReached).toEqual([]);
    expect(what.missionsLost).toEqual([mission(2)]);
  });

  test('an entry with no events among them has no contribution; rounding follows the exact sum (spec §4)', () => {
    expect(entryContribution(T, 9, [added(1, 5)], edition2025)).toBeNull();
    // 6.49 + 0.02 = 6.51 km exact → 7 km rounded: mission 1 (7 km) is reached by 0.02 km.
    const what = entryContribution(T, 2, [added(1, 6.49), added(2, 0.02)], edition2025)!;
    expect(what.distance).toEqual({ before: 6, after: 7, gained: 1 });
    expect(what.distanceExact.gained).toBe(0.02);
    expect(what.missionsReached).toEqual([mission(1)]);
  });
});

describe('entryContributions and latestEntryEvents', () => {
  test('answers several entries in one pass, each as of its own latest event', () => {
    const events = [added(1, 5), added(2, 3), edited(1, 6)];
    const latest = latestEntryEvents(events);
    expect(latest).toEqual(new Map([[1, events[2]!.globalPosition], [2, events[1]!.globalPosition]]));
    const answers = entryContributions(T, events, new Set(latest.values()), edition2025);
    expect(answers.get(events[1]!.globalPosition)?.distanceExact).toEqual({ before: 5, after: 8, gained: 3 });
    expect(answers.get(events[2]!.globalPosition)?.distanceExact).toEqual({ before: 8, after: 9, gained: 1 });
    expect(answers.get(events[1]!.globalPosition)?.missionsReached).toEqual([mission(1)]);
    expect(answers.get(events[2]!.globalPosition)?.missionsReached).toEqual([]);
  });
});

describe('TeamEntriesFold', () => {
  test('an entry edited into another team leaves this one', () => {
    const fold = new TeamEntriesFold(T);
    for (const event of [added(1, 5), added(2, 2.5), edited(1, 6, 2)]) fold.apply(event);
    expect(fold.hundredths).toBe(250);
    expect(fold.entryHundredths(1)).toBe(600);
  });

  test('an entry rejected by moderation leaves the team\'s km as a deleted one does', () => {
    const fold = new TeamEntriesFold(T);
    for (const event of [added(1, 5), added(2, 70), recorded('EntryReviewRejected', { entryId: 2, teamId: T, participantId: 11, note: 'liiga palju' })]) fold.apply(event);
    expect(fold.hundredths).toBe(500);
    expect(fold.entryHundredths(2)).toBeNull();
  });
});

describe('missionsBetween', () => {
  test('ends in (from, to], across laps, none going back', () => {
    expect(missionsBetween(0, 7, edition2025)).toEqual([mission(1)]);
    expect(missionsBetween(7, 27, edition2025)).toEqual([mission(2)]);
    expect(missionsBetween(1893, 1900, edition2025)).toEqual([mission(1, 2)]);
    expect(missionsBetween(1892, 3786, edition2025).map((m) => `${m.lap}:${m.id}`)).toEqual(['1:24', ...route.map((m) => `2:${m.id}`)]);
    expect(missionsBetween(30, 20, edition2025)).toEqual([]);
  });
});

describe('a rejected entry in "what this did"', () => {
  const flagged = (entryId: number) => recorded('EntryFlagged', { entryId, teamId: T, participantId: 11, reasons: [], flaggedAt: '2025-04-10T08:00:00.000Z' });
  const rejected = (entryId: number) => recorded('EntryReviewRejected', { entryId, teamId: T, participantId: 11, note: '', decidedBy: 'a', decidedAt: '2025-04-12T08:00:00.000Z' });

  test('its add did nothing, and a later entry is told against the team\'s km without it', () => {
    const events = [added(1, 5), added(2, 70), flagged(2), added(3, 3), rejected(2)];
    expect(entryContribution(T, 2, events, edition2025)).toMatchObject({
      change: 'added', entryDistance: { before: null, after: null }, distanceExact: { before: 5, after: 5, gained: 0 }, missionsReached: [],
    });
    // Without entry 2 the team goes from 5 to 8 km: entry 3 reached mission 1 (7 km).
    expect(entryContribution(T, 3, events, edition2025)).toMatchObject({ distanceExact: { before: 5, after: 8, gained: 3 }, missionsReached: [mission(1)] });
  });

  test('a flag or a decision is not an answer of its own: the latest add, edit or deletion is', () => {
    const events = [added(1, 5), flagged(1), recorded('EntryReviewApproved', { entryId: 1, teamId: T, participantId: 11, note: '', decidedBy: 'a', decidedAt: '2025-04-12T08:00:00.000Z' })];
    expect(latestEntryEvents(events)).toEqual(new Map([[1, events[0]!.globalPosition]]));
    expect(entryContribution(T, 1, events, edition2025)).toMatchObject({ change: 'added', distanceExact: { before: 0, after: 5, gained: 5 } });
  });
});
