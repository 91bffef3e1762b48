import { describe, expect, test } from 'vitest';
import { teamProgress } from '@sinilill/domain';
import { edition2025 } from '@sinilill/domain/seed';
import type { Actor, RecordedEvent } from '@sinilill/event-store';
import { teamAsOf, timeline, toHistoryEvent } from './history-fold';

const SYSTEM: Actor = { userId: null, role: 'SYSTEM' };
const MARI: Actor = { userId: 'user-11', role: 'USER' };
let position = 0;

/** A recorded event at the next global position; `at` is its recording instant. */
function recorded(stream: string, type: string, data: Record<string, unknown>, actor: Actor = SYSTEM, at = '2025-04-10T09:00:00Z'): RecordedEvent {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type, schemaVersion: 1, data,
    metadata: { actor, correlationId: `corr-${position}`, causationId: null },
    stream, revision: 0, globalPosition: position, recordedAt: new Date(at),
  };
}

const entry = (type: string, entryId: number, teamId: number, distance: number, actor: Actor = SYSTEM) =>
  recorded(`entry-${entryId}`, type, { entryId, teamId, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-10' }, actor);

describe('timeline', () => {
  test('given an entry added and edited twice, then each event shows its distance change and its actor', () => {
    const events = [entry('EntryAdded', 12, 1, 5), entry('EntryEdited', 12, 1, 7.5, MARI), entry('EntryEdited', 12, 1, 10)];
    const steps = timeline(events);
    const distance = steps.map((s) => s.changes.find((c) => c.field === 'distance'));
    expect(distance).toEqual([
      { field: 'distance', before: null, after: 5 },
      { field: 'distance', before: 5, after: 7.5 },
      { field: 'distance', before: 7.5, after: 10 },
    ]);
    expect(steps.map((s) => s.actor)).toEqual([SYSTEM, MARI, SYSTEM]);
    expect(steps.map((s) => s.type)).toEqual(['EntryAdded', 'EntryEdited', 'EntryEdited']);
    // Unchanged fields are no change: the second edit touched only the distance.
    expect(steps[2]!.changes.map((c) => c.field)).toEqual(['distance']);
  });

  test('a partial event changes only the fields it carries; a field seen first has before null', () => {
    const steps = timeline([
      recorded('team-1', 'TeamRegistered', { teamId: 1, teamName: 'Tammed', description: 'a', icon: null }),
      recorded('team-1', 'TeamPublicAttributesChanged', { teamId: 1, description: 'b', changedAt: '2025-04-02T00:00:00Z' }),
    ]);
    expect(steps[1]!.changes).toEqual([
      { field: 'description', before: 'a', after: 'b' },
      { field: 'changedAt', before: null, after: '2025-04-02T00:00:00Z' },
    ]);
    expect(steps[1]!.correlationId).toMatch(/^corr-/);
  });

  test('an event without actor metadata is shown with a null actor rather than refused', () => {
    const bare = { ...entry('EntryAdded', 3, 1, 1), metadata: {} } as unknown as RecordedEvent;
    expect(timeline([bare])[0]!.actor).toBeNull();
    expect(toHistoryEvent(bare)).toMatchObject({ actor: null, correlationId: null, causationId: null });
  });
});

describe('teamAsOf', () => {
  const at = new Date('2025-04-20T00:00:00Z');
  const registered = recorded('team-1', 'TeamRegistered', { teamId: 1, teamName: 'Tammed', description: '', icon: null });
  const member = (participantId: number, teamId: number) =>
    recorded(`participant-${participantId}`, 'ParticipantRegistered', { participantId, teamId, fullName: null });

  test('given members and entries, then the exact sum, its rounding and the progress figures', () => {
    const figures = teamAsOf(1, at, [
      registered, member(11, 1), member(12, 1), member(21, 2),
      entry('EntryAdded', 1, 1, 12.34), entry('EntryAdded', 2, 1, 0.1), entry('EntryAdded', 3, 2, 99),
      entry('EntryEdited', 2, 1, 0.2),
    ], edition2025);
    const progress = teamProgress(13, edition2025);
    expect(figures).toEqual({
      teamId: 1, teamName: 'Tammed', at: '2025-04-20T00:00:00.000Z', participants: 2,
      distance: 13, distanceExact: 12.54,
      prestige: progress.prestige, inLapDistance: progress.inLapDistance, blueFlowers: progress.blueFlowers,
    });
  });

  test('renames, deletions and an entry edited into another team are folded', () => {
    const figures = teamAsOf(1, at, [
      registered, member(11, 1), member(12, 1),
      recorded('team-1', 'TeamRenamed', { teamId: 1, teamName: 'Tammed II' }),
      recorded('participant-12', 'ParticipantDeleted', { participantId: 12, teamId: 1 }),
      entry('EntryAdded', 1, 1, 10), entry('EntryAdded', 2, 1, 4), entry('EntryAdded', 3, 1, 1),
      recorded('entry-2', 'EntryDeleted', { entryId: 2, teamId: 1, participantId: 11 }),
      entry('EntryEdited', 3, 2, 1),
    ], edition2025);
    expect(figures).toMatchObject({ teamName: 'Tammed II', participants: 1, distance: 10, distanceExact: 10 });
  });

  test('a rejected entry counts nowhere from its rejection on; a flagged or approved one counts', () => {
    const decided = (type: string, entryId: number) => recorded(`entry-${entryId}`, type, { entryId, teamId: 1, participantId: 11, note: '', decidedBy: 'a', decidedAt: '2025-04-12T08:00:00.000Z' });
    const flagged = (entryId: number) => recorded(`entry-${entryId}`, 'EntryFlagged', { entryId, teamId: 1, participantId: 11, reasons: [], flaggedAt: '2025-04-10T08:00:00.000Z' });
    const given = [registered, member(11, 1), entry('EntryAdded', 1, 1, 10), entry('EntryAdded', 2, 1, 70), flagged(2), entry('EntryAdded', 3, 1, 2), flagged(3), decided('EntryReviewApproved', 3)];
    expect(teamAsOf(1, at, given, edition2025)).toMatchObject({ distanceExact: 82 });
    expect(teamAsOf(1, at, [...given, decided('EntryReviewRejected', 2)], edition2025)).toMatchObject({ distanceExact: 12, distance: 12 });
  });

  test('a team not yet registered has no figures', () => {
    expect(teamAsOf(1, at, [entry('EntryAdded', 1, 1, 10)], edition2025)).toBeNull();
  });
});
