/**
 * Erasures across processes: two vaults on one database stand for two
 * processes, each with its own SubjectErasureListener. An erasure through one reaches the other's
 * cache within milliseconds (not the 60 s TTL); while a listener's connection is down its vault
 * caches no live key, and after it reconnects it caches again.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type pg from 'pg';
import { event, migratedDatabase, sleep } from './int-test-support';
import { PersonalDataVault, SUBJECT_ERASED_CHANNEL, withPersonalDataProtection, type PersonalDataPolicy } from './personal-data';
import { PostgresEventStore } from './postgres-event-store';
import { SubjectErasureListener } from './subject-erasures';
import type { EventStore } from './types';

let pool: pg.Pool;
let url: string;
let inner: PostgresEventStore;
const listeners: SubjectErasureListener[] = [];

const policy: PersonalDataPolicy = { ParticipantRegistered: { subject: 'participantId', fields: ['name'] } };

beforeAll(async () => {
  ({ pool, url } = await migratedDatabase());
  inner = new PostgresEventStore({ pool });
});
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await pool.end();
});

/** A "process": its own vault (60 s TTL) with its own listener, and a protected store over it. */
async function processWithVault(): Promise<{ vault: PersonalDataVault; store: EventStore; listener: SubjectErasureListener }> {
  const vault = new PersonalDataVault({ pool, cacheTtlMs: 60_000 });
  const listener = new SubjectErasureListener({ connectionString: url, vaults: [vault], reconnect: { minMs: 20, maxMs: 100 } });
  listeners.push(listener);
  await listener.start();
  return { vault, store: withPersonalDataProtection(inner, vault, policy), listener };
}

const nameOf = async (store: EventStore, stream: string) => ((await store.readStream(stream))[0]!.data as { name: string | null }).name;

/** Polls `read` every millisecond until it gives null; the time that took, ms. */
async function msUntilNull(read: () => Promise<unknown>, boundMs = 5_000): Promise<number> {
  const started = performance.now();
  while ((await read()) !== null) {
    if (performance.now() - started > boundMs) throw new Error(`still readable after ${boundMs} ms`);
    await sleep(1);
  }
  return performance.now() - started;
}

describe('erasures heard across processes', () => {
  test('an erasure in A makes B refuse to decrypt within milliseconds, though B had the key cached', async () => {
    const a = await processWithVault();
    const b = await processWithVault();
    await a.store.appendToStream('participant-1', [event('ParticipantRegistered', { participantId: 1, name: 'Mari' })], { expectedRevision: 'no_stream' });
    expect(await nameOf(b.store, 'participant-1')).toBe('Mari');
    // B's key is cached now: reading again asks the database nothing.
    const spy = vi.spyOn(pool, 'query');
    try {
      expect(await nameOf(b.store, 'participant-1')).toBe('Mari');
      expect(spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('subject_keys'))).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }

    const erasing = performance.now();
    await a.vault.forget('participant-1');
    const forgetMs = performance.now() - erasing;
    const heardMs = await msUntilNull(() => nameOf(b.store, 'participant-1'));
    console.log(`erasure seen by the other vault ${heardMs.toFixed(1)} ms after forget() returned (forget took ${forgetMs.toFixed(1)} ms)`);
    expect(heardMs).toBeLessThan(500); // the TTL would have been 60 000
    expect(await nameOf(a.store, 'participant-1')).toBeNull();
  });

  test('other subjects stay cached, and an erasure says nothing until it commits', async () => {
    const a = await processWithVault();
    const b = await processWithVault();
    for (const id of [2, 3]) {
      await a.store.appendToStream(`participant-${id}`, [event('ParticipantRegistered', { participantId: id, name: `P${id}` })], { expectedRevision: 'no_stream' });
      expect(await nameOf(b.store, `participant-${id}`)).toBe(`P${id}`);
    }
    // A transaction that deletes the key and notifies, held open: B hears nothing and still decrypts.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE es.subject_keys SET key = NULL, erased_at = now() WHERE subject = $1', ['participant-2']);
      await client.query('SELECT pg_notify($1, $2)', [SUBJECT_ERASED_CHANNEL, 'participant-2']);
      await sleep(100);
      expect(await nameOf(b.store, 'participant-2')).toBe('P2');
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await sleep(100);
    expect(await nameOf(b.store, 'participant-2')).toBe('P2');

    await a.vault.forget('participant-2');
    await msUntilNull(() => nameOf(b.store, 'participant-2'));
    const spy = vi.spyOn(pool, 'query');
    try {
      expect(await nameOf(b.store, 'participant-3')).toBe('P3');
      expect(spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('subject_keys'))).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  test('while the listener is disconnected its vault caches no live key; after it reconnects it caches again', async () => {
    const a = await processWithVault();
    const b = await processWithVault();
    await a.store.appendToStream('participant-4', [event('ParticipantRegistered', { participantId: 4, name: 'Tiit' })], { expectedRevision: 'no_stream' });
    expect(await nameOf(b.store, 'participant-4')).toBe('Tiit');

    // Cut every erasure listener's connection (as a database restart would) and erase at once,
    // before they can be back: nobody hears it, yet B reads null, since it trusts no cached key.
    const { rows } = await pool.query<{ cut: boolean }>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN ${SUBJECT_ERASED_CHANNEL}`],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(b.listener.listening).toBe(false), { timeout: 2_000, interval: 5 });
    await a.vault.forget('participant-4');
    expect(await nameOf(b.store, 'participant-4')).toBeNull();

    await vi.waitFor(() => expect(b.listener.listening).toBe(true), { timeout: 5_000, interval: 10 });
    await a.store.appendToStream('participant-5', [event('ParticipantRegistered', { participantId: 5, name: 'Kai' })], { expectedRevision: 'no_stream' });
    expect(await nameOf(b.store, 'participant-5')).toBe('Kai');
    const spy = vi.spyOn(pool, 'query');
    try {
      expect(await nameOf(b.store, 'participant-5')).toBe('Kai');
      expect(spy.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('subject_keys'))).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
    await a.vault.forget('participant-5');
    expect(await msUntilNull(() => nameOf(b.store, 'participant-5'))).toBeLessThan(500);
  });

  test('a key read in flight when the erasure is heard is used once, not cached', async () => {
    const a = await processWithVault();
    const b = await processWithVault();
    await a.store.appendToStream('participant-6', [event('ParticipantRegistered', { participantId: 6, name: 'Ülle' })], { expectedRevision: 'no_stream' });
    // B's key query is held back until the erasure has been heard (the race of a slow read).
    const original = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const spy = vi.spyOn(pool, 'query').mockImplementation((async (...args: unknown[]) => {
      const answer = await original(...args);
      if (typeof args[0] === 'string' && args[0].startsWith('SELECT subject, key')) await held;
      return answer;
    }) as never);
    let reading: Promise<string | null>;
    try {
      reading = nameOf(b.store, 'participant-6');
      await sleep(20); // the read has its key (the row as it was) but has not returned
      spy.mockRestore();
      await a.vault.forget('participant-6');
      await sleep(50); // heard by B's listener
      release();
      expect(await reading).toBe('Ülle'); // it began before the erasure
    } finally {
      spy.mockRestore();
      release();
    }
    expect(await nameOf(b.store, 'participant-6')).toBeNull(); // not cached from the read in flight
  });
});
