import { test } from 'vitest';
import { migratedDatabase } from './int-test-support';

test('plans', async () => {
  const { pool } = await migratedDatabase(2);
  await pool.query(`INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
    SELECT g, gen_random_uuid(), 's-' || (g % 1000), g / 1000, CASE WHEN g % 7 = 0 THEN 'B' ELSE 'EntryAdded' END, 1, '{"a":1}', '{}' FROM generate_series(1, 111000) g`);
  for (const analyzed of [false, true]) {
    if (analyzed) await pool.query('ANALYZE es.events');
    for (const after of [0, 100000]) {
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT x.* FROM unnest($3::text[]) AS t(type)
    CROSS JOIN LATERAL (SELECT * FROM es.events e WHERE e.type = t.type AND e.global_position > $1
                        ORDER BY e.global_position LIMIT $2) x
    ORDER BY x.global_position LIMIT $2`, [after, 1000, ['EntryAdded', 'B']]);
      console.log(analyzed, after, '\n' + rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
  }
  await pool.end();
}, 600_000);
