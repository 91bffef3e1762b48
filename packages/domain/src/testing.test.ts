import { describe, expect, it } from 'vitest';
import { edition2025 } from './edition/seed';
import { entryDecider } from './entry';
import type { DeleteEntry } from './entry';
import { DomainError } from './errors';
import { deciderSpec, testContext } from './testing';

const { given } = deciderSpec(entryDecider);
const del: DeleteEntry = { type: 'DeleteEntry', data: { entryId: 1 } };

describe('the given/when/then helper', () => {
  it('returns the error it checked', () => {
    const error = given([]).when(del).then('NOT_FOUND');
    expect(error).toBeInstanceOf(DomainError);
  });

  it('fails when the code differs', () => {
    expect(() => given([]).when(del).then('FORBIDDEN')).toThrow();
  });

  it('fails when events come instead of an error, and when events differ', () => {
    const entryAdded = {
      type: 'EntryAdded' as const,
      data: { entryId: 1, teamId: 1, participantId: 1, distance: 1, entryType: 'WALK', performedAt: '2025-04-02', createdAt: 'x', source: { kind: 'manual' as const } },
    };
    expect(() => given([entryAdded]).when(del).then('NOT_FOUND')).toThrow(/expected DomainError NOT_FOUND/);
    expect(() => given([entryAdded]).when(del).then([])).toThrow();
  });

  it('fails when an unexpected error is thrown instead of events', () => {
    expect(() => given([]).when(del).then([])).toThrow('NOT_FOUND');
  });

  it('builds a mid-event context for participant 1 of team 1', () => {
    expect(testContext()).toEqual({
      now: '2025-04-10T09:00:00.000Z',
      actor: { userId: 'user-1', role: 'USER', participantId: 1, teamId: 1 },
      entryInsertionEnabled: true,
      edition: edition2025,
    });
  });
});
