/**
 * The domain's first upcaster (EntryAdded v1 → v2) on a real log: an event
 * appended raw at version 1 reads as version 2 through every read path of PostgresEventStore and
 * of the personal-data decorator, while the stored row stays as written; a version 2 event reads
 * unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { event, migratedDatabase } from './int-test-support';
// Through the package's index, as every service imports it: that registers the domain's upcasters.
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from './index';

let pool: pg.Pool;
let store: EventStore;

const v1 = { entryId: 1, teamId: 1, participantId: 1, distance: 5.5, entryType: 'WALK', performedAt: '2025-04-02', createdAt: '2025-04-02T08:00:00.000Z' };
const v2 = { ...v1, entryId: 2, source: { kind: 'file', format: 'gpx', sha256: 'ab'.repeat(32) } };

beforeAll(async () => {
  ({ pool } = await migratedDatabase());
  store = new PostgresEventStore({ pool });
  await store.appendToStream('entry-1', [event('EntryAdded', v1, { schemaVersion: 1 })], { expectedRevision: 'no_stream' });
  await store.appendToStream('entry-2', [event('EntryAdded', v2, { schemaVersion: 2 })], { expectedRevision: 'no_stream' });
});
afterAll(async () => {
  await store.close();
  await pool.end();
});

describe('EntryAdded v1 → v2', () => {
  it('reads a version 1 event as version 2 with a manual source, by every read path', async () => {
    const lifted = { schemaVersion: 2, data: { ...v1, source: { kind: 'manual' } } };
    const [fromStream] = await store.readStream('entry-1');
    expect(fromStream).toMatchObject(lifted);
    expect((await store.readAll({ after: 0, maxCount: 10 }))[0]).toMatchObject(lifted);
    expect((await store.readAll({ after: 0, maxCount: 10, metadata: false }))[0]).toMatchObject(lifted);
    expect((await store.readAll({ after: 0, maxCount: 10, types: ['EntryAdded'] }))[0]).toMatchObject(lifted);
    expect(await store.findEvent(fromStream!.id)).toMatchObject(lifted);
    expect((await store.readStreams!([{ stream: 'entry-1' }])).streams[0]![0]).toMatchObject(lifted);
    const protectedStore = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), {});
    expect((await protectedStore.readStream('entry-1'))[0]).toMatchObject(lifted);
  });

  it('keeps the stored row as written', async () => {
    const { rows } = await pool.query("SELECT schema_version, data FROM es.events WHERE stream = 'entry-1'");
    expect(rows).toEqual([{ schema_version: 1, data: v1 }]);
  });

  it('reads a version 2 event unchanged', async () => {
    expect((await store.readStream('entry-2'))[0]).toMatchObject({ schemaVersion: 2, data: v2 });
  });
});
