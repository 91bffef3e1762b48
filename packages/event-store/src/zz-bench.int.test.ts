import { test } from 'vitest';
import { event, migratedDatabase } from './int-test-support';
import { PostgresEventStore } from './postgres-event-store';

test('bench', async () => {
  const { pool } = await migratedDatabase(20);
  const store = new PostgresEventStore({ pool });
  const data = { teamId: 12, participantId: 34, km: 5.25, performedAt: '2026-04-03T10:00:00Z', kind: 'walk', note: 'morning walk around the lake' };
  let t = performance.now();
  const N = 3000;
  for (let i = 0; i < N; i++) await store.appendToStream(`entry-${i}`, [event('EntryAdded', data)], { expectedRevision: 'no_stream' });
  let ms = performance.now() - t;
  console.log(`sequential single appends: ${(ms / N).toFixed(3)} ms each, ${Math.round(N / ms * 1000)}/s`);
  t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < 8000) { const i = next++; await store.appendToStream(`c-${i % 500}`, [event('EntryAdded', data)], { expectedRevision: 'any' }); }
  }));
  ms = performance.now() - t;
  console.log(`16 concurrent single appends: ${Math.round(8000 / ms * 1000)}/s`);
  t = performance.now();
  for (let b = 0; b < 100; b++) await store.appendToStream(`batch-${b}`, Array.from({ length: 1000 }, () => event('EntryAdded', data)), { expectedRevision: 'no_stream' });
  ms = performance.now() - t;
  console.log(`batch appends of 1000: ${Math.round(100000 / ms * 1000)} events/s`);
  for (const size of [1000, 5000, 1000, 5000]) {
    for (const types of [undefined, ['EntryAdded']]) {
      t = performance.now();
      let after = 0; let total = 0;
      for (;;) { const batch = await store.readAll({ after, maxCount: size, types }); if (batch.length === 0) break; total += batch.length; after = batch.at(-1)!.globalPosition; }
      ms = performance.now() - t;
      console.log(`readAll batch ${size}${types ? ' (types)' : ''}: ${total} events, ${Math.round(total / ms * 1000)} events/s`);
    }
  }
  await pool.end();
}, 600_000);
