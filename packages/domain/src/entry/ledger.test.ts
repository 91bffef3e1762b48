/** The entry ledger: what each entry event does to an entry, and when an entry counts. */
import { describe, expect, it } from 'vitest';
import type { EntryEvent } from '../events';
import { ENTRY_EVENT_TYPES, EntryLedger, asEntryEvent, countOf, evolveEntryCount, type LedgerEntry } from './ledger';

const added = (entryId: number, distance = 12.34, over: Partial<Extract<EntryEvent, { type: 'EntryAdded' }>['data']> = {}): EntryEvent => ({
  type: 'EntryAdded',
  data: {
    entryId, teamId: 1, participantId: 11, distance, entryType: 'WALK', performedAt: '2025-04-10', createdAt: '2025-04-10T08:00:00Z',
    source: { kind: 'file', format: 'gpx', sha256: 'a'.repeat(64) }, ...over,
  },
});
const edited = (entryId: number, distance: number): EntryEvent => ({
  type: 'EntryEdited',
  data: { entryId, teamId: 1, participantId: 11, distance, entryType: 'OUTDOOR_RUN', performedAt: '2025-04-11', editedAt: '2025-04-11T08:00:00Z' },
});
const ids = { entryId: 1, teamId: 1, participantId: 11 };
const flagged: EntryEvent = { type: 'EntryFlagged', data: { ...ids, reasons: [], flaggedAt: '2025-04-10T08:00:00Z' } };
const decision = { ...ids, note: '', decidedBy: '00000000-0000-4000-8000-00000000ad01', decidedAt: '2025-04-12T08:00:00Z' };
const approved: EntryEvent = { type: 'EntryReviewApproved', data: decision };
const rejected: EntryEvent = { type: 'EntryReviewRejected', data: decision };
const deleted: EntryEvent = { type: 'EntryDeleted', data: { ...ids, deletedAt: '2025-04-13T08:00:00Z' } };

function fold(events: EntryEvent[]): LedgerEntry | undefined {
  const ledger = new EntryLedger();
  for (const event of events) ledger.apply(event);
  return ledger.get(1);
}

describe('EntryLedger', () => {
  it('gives an added entry its team, participant, day, exact hundredths, type and source; it counts', () => {
    expect(fold([added(1, 12.34)])).toEqual({
      entryId: 1, teamId: 1, participantId: 11, day: '2025-04-10', hundredths: 1234, entryType: 'WALK',
      source: { kind: 'file', format: 'gpx', sha256: 'a'.repeat(64) }, review: 'none', deleted: false, counts: true,
    });
    expect(fold([added(1, 0.29)])?.hundredths).toBe(29);
  });

  it('an edit replaces distance, day and type and keeps source and review', () => {
    expect(fold([added(1), flagged, edited(1, 5)])).toMatchObject({ hundredths: 500, day: '2025-04-11', entryType: 'OUTDOOR_RUN', review: 'flagged', counts: true, source: { kind: 'file' } });
  });

  it('a flagged or approved entry counts; a rejected or deleted one does not', () => {
    expect(fold([added(1), flagged])).toMatchObject({ review: 'flagged', counts: true });
    expect(fold([added(1), flagged, approved])).toMatchObject({ review: 'approved', counts: true });
    expect(fold([added(1), flagged, rejected])).toMatchObject({ review: 'rejected', counts: false, deleted: false });
    expect(fold([added(1), deleted])).toMatchObject({ deleted: true, counts: false });
    expect(fold([added(1), flagged, rejected, deleted])).toMatchObject({ review: 'rejected', deleted: true, counts: false });
    expect(countOf(fold([added(1), flagged, rejected]))).toBeNull();
  });

  it('events of an entry never added leave it unknown, except an edit, which stands for the entry', () => {
    expect(fold([flagged, rejected, deleted])).toBeUndefined();
    expect(fold([edited(1, 3)])).toMatchObject({ hundredths: 300, review: 'none', source: { kind: 'manual' }, counts: true });
  });

  it('reads events from the log and ignores other types', () => {
    const ledger = new EntryLedger();
    expect(ledger.applyRecorded({ type: 'TeamRenamed', data: { teamId: 1 } })).toBeNull();
    expect(ledger.applyRecorded(added(1))?.after?.counts).toBe(true);
    expect(asEntryEvent({ type: 'EntryReviewRejected', data: decision })?.type).toBe('EntryReviewRejected');
  });

  it('names every entry event type', () => {
    expect(ENTRY_EVENT_TYPES).toEqual(['EntryAdded', 'EntryEdited', 'EntryDeleted', 'EntryFlagged', 'EntryReviewApproved', 'EntryReviewRejected']);
  });
});

describe('evolveEntryCount (a fold that keeps only counting entries)', () => {
  const counted = { entryId: 1, teamId: 1, participantId: 11, day: '2025-04-10', hundredths: 1234 };
  it('follows the ledger: adds and edits count, flags and approvals change nothing, rejection and deletion end the count', () => {
    expect(evolveEntryCount(null, added(1))).toEqual(counted);
    expect(evolveEntryCount(counted, edited(1, 5))).toEqual({ ...counted, day: '2025-04-11', hundredths: 500 });
    expect(evolveEntryCount(counted, flagged)).toEqual(counted);
    expect(evolveEntryCount(counted, approved)).toEqual(counted);
    expect(evolveEntryCount(counted, rejected)).toBeNull();
    expect(evolveEntryCount(counted, deleted)).toBeNull();
    expect(evolveEntryCount(null, deleted)).toBeNull();
  });
});
