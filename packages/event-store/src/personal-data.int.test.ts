import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type pg from 'pg';
import { event, migratedDatabase } from './int-test-support';
import { PersonalDataVault, withPersonalDataProtection, type PersonalDataPolicy } from './personal-data';
import { PostgresEventStore } from './postgres-event-store';
import type { EventStore } from './types';

let pool: pg.Pool;
let inner: PostgresEventStore;

const policy: PersonalDataPolicy = {
  ParticipantRegistered: { subject: 'participantId', fields: ['name', 'email', 'phone'] },
  ParticipantRenamed: { subject: 'participantId', fields: ['name'] },
};

beforeAll(async () => {
  ({ pool } = await migratedDatabase());
  inner = new PostgresEventStore({ pool });
});
afterAll(async () => {
  await pool.end();
});

function protectedStore(vault = new PersonalDataVault({ pool })): { store: EventStore; vault: PersonalDataVault } {
  return { store: withPersonalDataProtection(inner, vault, policy), vault };
}

const registered = (participantId: number, name: string) =>
  event('ParticipantRegistered', { participantId, name, email: `${name.toLowerCase()}@example.ee`, phone: null, km: 5 });

async function storedText(stream: string): Promise<string> {
  const { rows } = await pool.query<{ row: string }>('SELECT e::text AS row FROM es.events e WHERE stream = $1', [stream]);
  return rows.map((r) => r.row).join('\n');
}

describe('crypto-shredding', () => {
  test('a prepared append is encrypted when prepared and stored encrypted when sent', async () => {
    const { store } = protectedStore();
    const prepared = await store.prepareAppend!([{ stream: 'participant-31', events: [registered(31, 'Kati')], expectedRevision: 'no_stream' }]);
    expect(await storedText('participant-31')).toBe('');
    await prepared.append();
    const raw = await storedText('participant-31');
    expect(raw).toContain('pii:v1:participant-31:');
    expect(raw).not.toContain('Kati');
    expect((await store.readStream('participant-31'))[0]!.data).toMatchObject({ name: 'Kati', email: 'kati@example.ee' });
  });

  test('given protected events, the stored rows hold no plaintext and every read path decrypts', async () => {
    const { store } = protectedStore();
    const written = registered(12, 'Mari');
    const { position } = await store.appendToStream('participant-12', [written], { expectedRevision: 'no_stream' });

    const raw = await storedText('participant-12');
    expect(raw).not.toContain('Mari');
    expect(raw).not.toContain('mari@example.ee');
    expect(raw).toContain('pii:v1:participant-12:');
    const { rows } = await pool.query<{ data: Record<string, unknown> }>('SELECT data FROM es.events WHERE stream = $1', ['participant-12']);
    expect(rows[0]!.data).toMatchObject({ participantId: 12, km: 5 }); // non-personal fields stay readable
    expect(rows[0]!.data.phone).toBeNull(); // null is not encrypted

    const expected = { participantId: 12, name: 'Mari', email: 'mari@example.ee', phone: null, km: 5 };
    expect((await store.readStream('participant-12'))[0]!.data).toEqual(expected);
    expect((await store.readAll({ after: position - 1, maxCount: 10 }))[0]!.data).toEqual(expected);
    expect((await store.findEvent(written.id))!.data).toEqual(expected);
  });

  test('after forget, reads give null for the personal fields, the key is gone, other subjects are intact', async () => {
    const { store, vault } = protectedStore();
    await store.appendToStream('participant-20', [registered(20, 'Jaan'), event('ParticipantRenamed', { participantId: 20, name: 'Johannes' })], {
      expectedRevision: 'no_stream',
    });
    await store.appendToStream('participant-21', [registered(21, 'Kati')], { expectedRevision: 'no_stream' });
    expect((await store.readStream('participant-20'))[1]!.data).toEqual({ participantId: 20, name: 'Johannes' });

    await vault.forget('participant-20');

    const [first, second] = await store.readStream('participant-20');
    expect(first!.data).toEqual({ participantId: 20, name: null, email: null, phone: null, km: 5 });
    expect(second!.data).toEqual({ participantId: 20, name: null });
    const { rows } = await pool.query('SELECT key, erased_at FROM es.subject_keys WHERE subject = $1', ['participant-20']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: null, erased_at: expect.any(Date) });
    // A process with a cold cache agrees.
    const cold = protectedStore().store;
    expect((await cold.readStream('participant-20'))[0]!.data).toMatchObject({ name: null });
    expect((await cold.readStream('participant-21'))[0]!.data).toMatchObject({ name: 'Kati' });
  });

  test('new personal data of a forgotten subject is never stored', async () => {
    const { store, vault } = protectedStore();
    await vault.forget('participant-30');
    await store.appendToStream('participant-30', [registered(30, 'Peeter')], { expectedRevision: 'no_stream' });
    expect(await storedText('participant-30')).not.toContain('Peeter');
    expect((await store.readStream('participant-30'))[0]!.data).toMatchObject({ name: null, km: 5 });
  });

  test('an idempotent repeat through the decorator stores the events once with the same result', async () => {
    const { store } = protectedStore();
    const events = [registered(40, 'Liis')];
    const first = await store.appendToStream('participant-40', events, { expectedRevision: 'no_stream' });
    const again = await store.appendToStream('participant-40', events, { expectedRevision: 'no_stream' });
    expect(again).toEqual({ ...first, repeated: true });
    expect(await store.readStream('participant-40')).toHaveLength(1);
  });

  test('a batch read loads the keys it needs with one query', async () => {
    const writer = protectedStore().store;
    const start = await inner.headPosition();
    for (let p = 50; p < 60; p++) await writer.appendToStream(`participant-${p}`, [registered(p, `P${p}`), registered(p, `Q${p}`)], { expectedRevision: 'any' });
    const vault = new PersonalDataVault({ pool });
    const { store } = protectedStore(vault);
    const spy = vi.spyOn(pool, 'query');
    try {
      const events = await store.readAll({ after: start, maxCount: 100 });
      expect(events).toHaveLength(20);
      expect(events.map((e) => (e.data as { name: string }).name)).toEqual(
        Array.from({ length: 10 }, (_, i) => [`P${50 + i}`, `Q${50 + i}`]).flat(),
      );
      const keyQueries = () => spy.mock.calls.filter(([query]) => typeof query === 'string' && query.includes('subject_keys'));
      expect(keyQueries()).toHaveLength(1);
      spy.mockClear();
      await store.readAll({ after: start, maxCount: 100 }); // now cached
      expect(keyQueries()).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  test("another process's forget reaches this cache within its TTL", async () => {
    let now = 1_000_000;
    const reader = protectedStore(new PersonalDataVault({ pool, cacheTtlMs: 60_000, now: () => now }));
    await reader.store.appendToStream('participant-70', [registered(70, 'Tiit')], { expectedRevision: 'no_stream' });
    expect((await reader.store.readStream('participant-70'))[0]!.data).toMatchObject({ name: 'Tiit' });
    await new PersonalDataVault({ pool }).forget('participant-70');
    expect((await reader.store.readStream('participant-70'))[0]!.data).toMatchObject({ name: 'Tiit' }); // still cached
    now += 60_001;
    expect((await reader.store.readStream('participant-70'))[0]!.data).toMatchObject({ name: null });
  });

  test('concurrent first use of a subject creates one key that both can use', async () => {
    const [a, b] = [new PersonalDataVault({ pool }), new PersonalDataVault({ pool })];
    const [sealedA, sealedB] = await Promise.all([a.encrypt('user-race', 'x'), b.encrypt('user-race', 'y')]);
    expect(await new PersonalDataVault({ pool }).decryptMany([sealedA, sealedB])).toEqual(['x', 'y']);
  });

  test('a policy that would encrypt its own subject field is rejected', () => {
    expect(() => withPersonalDataProtection(inner, new PersonalDataVault({ pool }), { X: { subject: 'id', fields: ['id'] } })).toThrow(TypeError);
  });
});
