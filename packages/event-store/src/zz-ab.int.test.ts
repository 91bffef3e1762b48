import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { event, migratedDatabase } from './int-test-support';
import { planAppend } from './append-plan';

test('ab', async () => {
  const { pool } = await migratedDatabase(20);
  await pool.query(readFileSync('/tmp/append_b.sql', 'utf8'));
  const data = { teamId: 12, participantId: 34, km: 5.25, performedAt: '2026-04-03T10:00:00Z', kind: 'walk', note: 'morning walk around the lake' };
  let k = 0;
  const run = async (fn: string, concurrency: number, n: number) => {
    const t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < n) { next++; const p = planAppend([{ stream: `s-${k++}`, events: [event('EntryAdded', data)], expectedRevision: 'no_stream' }]);
        await pool.query({ name: fn, text: `SELECT * FROM ${fn}($1::text[], $2::text[], $3::int[], $4::jsonb)`, values: [p.streams, p.expected, p.counts, p.eventsJson] }); }
    }));
    return Math.round(n / (performance.now() - t) * 1000);
  };
  await run('es.append', 4, 500); await run('es.append_b', 4, 500);
  for (let r = 0; r < 3; r++) for (const c of [1, 4, 16]) console.log(`c=${c} A ${await run('es.append', c, 2000)}/s  B ${await run('es.append_b', c, 2000)}/s`);
  await pool.end();
}, 600_000);
