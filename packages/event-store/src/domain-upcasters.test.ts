import type { RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { describe, expect, test } from 'vitest';
import './domain-upcasters';
import { toKurrentEvent, toRecordedEvent as fromKurrent } from './kurrentdb-mapping';
import { toRecordedEvent as fromRow } from './postgres-event-store';

const v1 = { entryId: 1, teamId: 1, participantId: 1, distance: 5.5, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z' };
const metadata = { actor: { userId: null, role: 'SYSTEM' as const }, correlationId: 'c', causationId: null };

/** An EntryAdded as KurrentDB hands it back, written at `schemaVersion`. */
function storedInKurrent(schemaVersion: number, data: unknown): KurrentRecordedEvent {
  const written = toKurrentEvent({ id: '0b6f1c7e-2d5a-4c1b-9e0f-3a4b5c6d7e8f', type: 'EntryAdded', schemaVersion, data, metadata });
  return {
    streamId: 'entry-1', id: written.id, isJson: true, revision: 0n, type: written.type, created: new Date('2025-04-02T08:00:00Z'),
    data: written.data, metadata: written.metadata, position: { commit: 10n, prepare: 10n },
  } as KurrentRecordedEvent;
}

describe("the domain's upcasters on both engines' read mapping", () => {
  test('a KurrentDB EntryAdded of version 1 reads as version 2 with a manual source; version 2 reads unchanged', () => {
    expect(fromKurrent(storedInKurrent(1, v1))).toMatchObject({ schemaVersion: 2, data: { ...v1, source: { kind: 'manual' } } });
    const v2 = { ...v1, source: { kind: 'file', format: 'fit', sha256: 'cd'.repeat(32) } };
    expect(fromKurrent(storedInKurrent(2, v2))).toMatchObject({ schemaVersion: 2, data: v2 });
  });

  test('a PostgreSQL row of version 1 reads as version 2 (the history route reads rows this way)', () => {
    const row = { global_position: 1, event_id: 'x', stream: 'entry-1', revision: 0, type: 'EntryAdded', schema_version: 1, data: v1, metadata, recorded_at: new Date() };
    expect(fromRow(row)).toMatchObject({ schemaVersion: 2, data: { source: { kind: 'manual' } } });
    // The row itself is left as read.
    expect(row.data).toEqual(v1);
  });
});
