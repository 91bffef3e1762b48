import { test } from 'vitest';
import { migratedDatabase } from './int-test-support';

test('plans', async () => {
  const { pool } = await migratedDatabase(2);
  await pool.query(`INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
    SELECT g, gen_random_uuid(), 's-' || (g % 1000), g / 1000, (ARRAY['EntryAdded','EntryAdded','EntryAdded','EntryEdited','TeamRegistered','Rare'])[1 + (g % 6)] || CASE WHEN g % 6 = 5 AND g % 1000 <> 5 THEN 'x' ELSE '' END, 1, '{"a":1}', '{}' FROM generate_series(1, 300000) g`);
  await pool.query('ANALYZE es.events');
  for (const [after, types] of [[0, ['EntryAdded']], [0, ['EntryAdded', 'TeamRegistered']], [150000, ['Rare', 'TeamRegistered']], [0, ['Rare']], [0, ['Rare', 'EntryEdited']]] as const) {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT * FROM es.events WHERE global_position > $1 AND type = ANY($3::text[]) ORDER BY global_position LIMIT $2`, [after, 1000, types]);
    console.log(JSON.stringify(types), after, '\n' + rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  await pool.end();
}, 600_000);
