import type { Entry } from '@sinilill/contracts';
import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { checkDistance, checkEntryForm, checkPerformedAt, defaultPerformedAt, entryBody, initialEntryForm, type EntryFormValues } from './entry-form';

const edition = edition2025;
const valid: EntryFormValues = { distance: '12.5', type: 'WALK', otherText: '', performedAt: '2025-04-12', participantId: '7' };
const members = [7, 8];
const invalidDistance = { kind: 'code', code: 'INVALID_DISTANCE' };
const badDecimal = (problem: string) => ({ kind: 'decimal', problem, maxDecimals: 2 });

describe('distance (spec §5: step 0.01, min 0.01; editing min 0)', () => {
  it('accepts up to two decimals, with a point or a comma', () => {
    for (const text of ['1', '0.01', '12.5', '12.50', '12,34', ' 42 ', '1000']) expect(checkDistance(text, 'add')).toBeUndefined();
  });

  it('requires a value', () => {
    expect(checkDistance('', 'add')).toEqual({ kind: 'required' });
    expect(checkDistance('  ', 'edit')).toEqual({ kind: 'required' });
  });

  it('refuses more than two decimals, non-numbers, negatives and more than 1000 km', () => {
    for (const text of ['1000.01', '1 000,5']) expect(checkDistance(text, 'add')).toEqual(invalidDistance);
    expect(checkDistance('1.234', 'add')).toEqual(badDecimal('tooManyDecimals'));
    expect(checkDistance('0.001', 'add')).toEqual(badDecimal('tooManyDecimals'));
    for (const text of ['abc', '-1', '1e3', '12.5.1', 'Infinity']) expect(checkDistance(text, 'add')).toEqual(badDecimal('malformed'));
  });

  it('reads thousands grouped by a space and refuses what is ambiguous', () => {
    expect(checkDistance('1 000', 'add')).toBeUndefined();
    expect(checkDistance('4 20', 'add')).toEqual(badDecimal('grouping'));
    expect(checkDistance('4,2.5', 'add')).toEqual(badDecimal('mixedSeparators'));
    expect(entryBody({ ...valid, distance: '0,5' }).distance).toBe(0.5);
  });

  it('needs at least 0.01 km for a new entry but allows 0 when editing', () => {
    expect(checkDistance('0', 'add')).toEqual(invalidDistance);
    expect(checkDistance('0.00', 'add')).toEqual(invalidDistance);
    expect(checkDistance('0', 'edit')).toBeUndefined();
  });
});

describe('performed at (spec §5: within April, else INVALID_PERFORMED_AT)', () => {
  it('accepts every day of the edition', () => {
    expect(checkPerformedAt('2025-04-01', edition)).toBeUndefined();
    expect(checkPerformedAt('2025-04-30', edition)).toBeUndefined();
  });

  it('refuses days outside April and impossible days', () => {
    for (const day of ['2025-03-31', '2025-05-01', '2024-04-15', '2025-04-31', 'yesterday']) {
      expect(checkPerformedAt(day, edition)).toEqual({ kind: 'code', code: 'INVALID_PERFORMED_AT' });
    }
    expect(checkPerformedAt('', edition)).toEqual({ kind: 'required' });
  });

  it('starts a new entry today while the event runs, else on its nearest day', () => {
    expect(defaultPerformedAt('2025-04-12', edition)).toBe('2025-04-12');
    expect(defaultPerformedAt('2025-03-20', edition)).toBe('2025-04-01');
    expect(defaultPerformedAt('2025-05-02', edition)).toBe('2025-04-30');
  });
});

describe('the whole form', () => {
  it('has no problems when valid, and makes the request body', () => {
    expect(checkEntryForm(valid, 'add', edition, members)).toEqual({});
    expect(entryBody(valid)).toEqual({ distance: 12.5, entry_type: 'WALK', performed_at: '2025-04-12', participant_id: 7 });
    expect(entryBody({ ...valid, distance: '3,25' }).distance).toBe(3.25);
  });

  it('requires a type, and the free text for OTHER, which becomes the entry type', () => {
    expect(checkEntryForm({ ...valid, type: '' }, 'add', edition, members)).toEqual({ type: { kind: 'required' } });
    expect(checkEntryForm({ ...valid, type: 'OTHER', otherText: '  ' }, 'add', edition, members)).toEqual({ otherText: { kind: 'required' } });
    expect(checkEntryForm({ ...valid, type: 'OTHER', otherText: 'x'.repeat(65) }, 'add', edition, members)).toEqual({
      otherText: { kind: 'tooLong', max: 64 },
    });
    const other = { ...valid, type: 'OTHER' as const, otherText: ' Sõudmine ' };
    expect(checkEntryForm(other, 'add', edition, members)).toEqual({});
    expect(entryBody(other).entry_type).toBe('Sõudmine');
    // A free text is only read under OTHER.
    expect(entryBody({ ...valid, otherText: 'ignored' }).entry_type).toBe('WALK');
  });

  it('reports every problem at once, and a member of another team', () => {
    const problems = checkEntryForm({ distance: '1000.01', type: '', otherText: '', performedAt: '2025-05-01', participantId: '99' }, 'add', edition, members);
    expect(problems).toEqual({
      distance: invalidDistance,
      type: { kind: 'required' },
      performedAt: { kind: 'code', code: 'INVALID_PERFORMED_AT' },
      participantId: { kind: 'code', code: 'PARTICIPANT_NOT_IN_TEAM' },
    });
    expect(checkEntryForm({ ...valid, participantId: '' }, 'add', edition, members)).toEqual({ participantId: { kind: 'required' } });
  });

  it('opens a new entry for the current user, and a stored one as it is', () => {
    expect(initialEntryForm(null, { participantId: 8, today: '2025-04-20' }, edition)).toEqual({
      distance: '',
      type: '',
      otherText: '',
      performedAt: '2025-04-20',
      participantId: '8',
    });
    const entry: Entry = {
      id: 5,
      team_id: 1,
      participant_id: 7,
      distance: 4.2,
      entry_type: 'Jooga',
      performed_at: '2025-04-03',
      created_at: '2025-04-03T10:00:00Z',
    };
    expect(initialEntryForm(entry, { participantId: 8, today: '2025-04-20', lang: 'en' }, edition)).toEqual({
      distance: '4.2',
      type: 'OTHER',
      otherText: 'Jooga',
      performedAt: '2025-04-03',
      participantId: '7',
    });
    expect(initialEntryForm(entry, { participantId: 8, today: '2025-04-20', lang: 'et' }, edition).distance).toBe('4,2');
  });
});
