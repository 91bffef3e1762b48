import { describe, expect, test } from 'vitest';
import { MY_DATA_CSV_COLUMNS } from '@sinilill/contracts';
import type { Actor, RecordedEvent } from '@sinilill/event-store';
import { MyDataFolder, eventRow, sectionRows, toMyEvent } from './my-data-fold';

const MARI: Actor = { userId: '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c11', role: 'USER' };
let position = 0;

/** A recorded event at the next global position. */
function recorded(stream: string, type: string, data: Record<string, unknown>, at = '2025-04-10T09:00:00Z'): RecordedEvent {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type, schemaVersion: 1, data, metadata: { actor: MARI, correlationId: `corr-${position}`, causationId: null },
    stream, revision: 0, globalPosition: position, recordedAt: new Date(at),
  };
}

const person = [
  recorded(`user-${MARI.userId}`, 'UserRegistered', {
    userId: MARI.userId, participantId: 11, role: 'USER', email: 'mari@example.ee', fullName: 'Mari Maasikas', approved: false,
    hasPassword: true, lang: 'est', registeredAt: '2025-03-01T08:00:00.000Z',
  }),
  recorded('participant-11', 'ParticipantRegistered', {
    participantId: 11, teamId: 4, fullName: 'Mari Maasikas', email: 'mari@example.ee', birthYear: 1980, gender: 'FEMALE',
    isCaptain: true, newsletter: true, registeredAt: '2025-03-01T08:00:00.000Z',
  }),
  recorded(`user-${MARI.userId}`, 'AccountConfirmed', { userId: MARI.userId, confirmedAt: '2025-03-01T09:00:00.000Z' }),
];
const entry = (type: string, entryId: number, data: Record<string, unknown>) =>
  recorded(`entry-${entryId}`, type, { entryId, teamId: 4, participantId: 11, entryType: 'WALK', performedAt: '2025-04-10', ...data });
const order = (type: string, data: Record<string, unknown>) => recorded('payment-o1', type, { orderId: 'o1', participantId: 11, teamId: 4, ...data });

describe('MyDataFolder', () => {
  test('given a person’s account and participant events, then the sections show them as the log says', () => {
    const folder = new MyDataFolder();
    for (const event of person) folder.add(event);
    expect(folder.accountSection(MARI.userId!)).toEqual({
      user_id: MARI.userId, email: 'mari@example.ee', full_name: 'Mari Maasikas', role: 'USER', approved: true, created_at: '2025-03-01T08:00:00.000Z',
    });
    expect(folder.participantSection('Tartu Tammed')).toEqual({
      id: 11, team: { id: 4, team_name: 'Tartu Tammed' }, full_name: 'Mari Maasikas', email: 'mari@example.ee', birth_year: 1980, gender: 'FEMALE',
      captain: true, paid: false, newsletter: true, registered_at: '2025-03-01T08:00:00.000Z',
    });
    expect(folder.teamId).toBe(4);
  });

  test('given an entry flagged and rejected, then it is rejected, with its flag and the rejection among its versions', () => {
    const folder = new MyDataFolder();
    folder.add(entry('EntryAdded', 5, { distance: 80, createdAt: '2025-04-10T10:00:00.000Z' }));
    folder.add(recorded('entry-5', 'EntryFlagged', { entryId: 5, teamId: 4, participantId: 11, reasons: [], flaggedAt: '2025-04-10T10:00:00.000Z' }));
    folder.add(recorded('entry-5', 'EntryReviewRejected', { entryId: 5, teamId: 4, participantId: 11, note: '', decidedBy: 'a', decidedAt: '2025-04-11T10:00:00.000Z' }));
    const [five] = folder.entrySection();
    expect(five).toMatchObject({ id: 5, status: 'rejected', distance: 80, team_id: 4, performed_at: '2025-04-10', created_at: '2025-04-10T10:00:00.000Z' });
    expect(five!.versions.map((v) => [v.type, v.at, v.distance])).toEqual([
      ['EntryAdded', '2025-04-10T10:00:00.000Z', 80], ['EntryFlagged', '2025-04-10T10:00:00.000Z', null], ['EntryReviewRejected', '2025-04-11T10:00:00.000Z', null],
    ]);
  });

  test('given an entry added, edited and deleted, then it is deleted with all three versions; without a participant, null', () => {
    const folder = new MyDataFolder();
    folder.add(entry('EntryAdded', 7, { distance: 5, createdAt: '2025-04-10T10:00:00.000Z' }));
    folder.add(entry('EntryEdited', 7, { distance: 7.5, editedAt: '2025-04-11T10:00:00.000Z' }));
    folder.add(entry('EntryAdded', 3, { distance: 2, createdAt: '2025-04-09T10:00:00.000Z' }));
    folder.add(recorded('entry-7', 'EntryDeleted', { entryId: 7, teamId: 4, participantId: 11, deletedAt: '2025-04-12T10:00:00.000Z' }));
    const [three, seven] = folder.entrySection();
    expect(three).toMatchObject({ id: 3, status: 'active', distance: 2 });
    expect(seven).toMatchObject({ id: 7, status: 'deleted', distance: 7.5, created_at: '2025-04-10T10:00:00.000Z' });
    expect(seven!.versions.map((v) => [v.type, v.at, v.distance])).toEqual([
      ['EntryAdded', '2025-04-10T10:00:00.000Z', 5], ['EntryEdited', '2025-04-11T10:00:00.000Z', 7.5], ['EntryDeleted', '2025-04-12T10:00:00.000Z', null],
    ]);
    expect(folder.participantSection(null)).toBeNull();
  });

  test('given an order that failed, then succeeded late and was refunded in full, then its status, cents and outcomes say so', () => {
    const folder = new MyDataFolder();
    folder.add(order('PaymentOrdered', { kind: 'fee', amountCents: 1500, feeCents: 1500, provider: 'sandbox', reference: 'AB12CD34', orderedAt: '2025-04-01T08:00:00.000Z' }));
    folder.add(order('PaymentFailed', { reason: 'ABANDONED', failedAt: '2025-04-01T08:10:00.000Z' }));
    folder.add(order('PaymentSucceeded', { amountCents: 1500, succeededAt: '2025-04-02T08:00:00.000Z' }));
    expect(folder.paymentSection()[0]).toMatchObject({ status: 'succeeded', amount_cents: 1500, refunded_cents: 0 });
    folder.add(order('PaymentRefunded', { kind: 'fee', amountCents: 1500, refundedCents: 1500, full: true, reason: 'asked', refundedAt: '2025-04-03T08:00:00.000Z' }));
    const [payment] = folder.paymentSection();
    expect(payment).toMatchObject({ order_id: 'o1', reference: 'AB12CD34', kind: 'fee', status: 'refunded', refunded_cents: 1500 });
    expect(payment!.outcomes.map((o) => o.type)).toEqual(['PaymentFailed', 'PaymentSucceeded', 'PaymentRefunded']);
  });

  test('an event type the deciders do not know is listed but folds nothing', () => {
    const folder = new MyDataFolder();
    for (const event of person) folder.add(event);
    folder.add(recorded('participant-11', 'SomethingNewHappened', { participantId: 11 }));
    expect(folder.participantSection(null)?.full_name).toBe('Mari Maasikas');
  });
});

describe('CSV rows', () => {
  test('one row per section item, only known columns; an event row carries its data as JSON', () => {
    const folder = new MyDataFolder();
    for (const event of person) folder.add(event);
    const rows = sectionRows(folder.accountSection(MARI.userId!), folder.participantSection('Tartu Tammed'), [], []);
    expect(rows.map((row) => row.section)).toEqual(['account', 'participant']);
    for (const row of rows) expect(Object.keys(row).every((key) => (MY_DATA_CSV_COLUMNS as readonly string[]).includes(key))).toBe(true);
    const event = eventRow(toMyEvent(person[1]!));
    expect(event).toMatchObject({ section: 'event', id: person[1]!.globalPosition, type: 'ParticipantRegistered', actor: `USER:${MARI.userId}` });
    expect(JSON.parse(String(event.data))).toMatchObject({ fullName: 'Mari Maasikas' });
  });
});
