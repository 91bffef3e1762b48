import { test } from 'vitest';
import { migratedDatabase } from './int-test-support';
import { PostgresEventStore } from './postgres-event-store';

test('typed replay with stale stats', async () => {
  const { pool } = await migratedDatabase(2);
  await pool.query(`INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
    SELECT g, gen_random_uuid(), 's-' || (g % 10), g, 'Old', 1, '{"a":1}', '{}' FROM generate_series(1, 20) g`);
  await pool.query('ANALYZE es.events');
  await pool.query(`INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
    SELECT g, gen_random_uuid(), 's-' || (g % 1000), g, CASE WHEN g % 7 = 0 THEN 'B' WHEN g % 1000 = 3 THEN 'Rare' ELSE 'EntryAdded' END, 1, '{"a":1}', '{}' FROM generate_series(21, 200000) g`);
  const store = new PostgresEventStore({ pool });
  for (const types of [['EntryAdded'], ['EntryAdded', 'B'], ['Rare'], ['Rare', 'B']]) {
    const t = performance.now();
    let after = 0; let total = 0;
    for (;;) { const batch = await store.readAll({ after, maxCount: 1000, types }); if (batch.length === 0) break; total += batch.length; after = batch.at(-1)!.globalPosition; }
    const ms = performance.now() - t;
    console.log(JSON.stringify(types), total, Math.round(total / ms * 1000), 'events/s');
  }
  await pool.end();
}, 600_000);
