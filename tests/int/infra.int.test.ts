import { inject, test, expect } from 'vitest';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createScratchDatabase } from '@sinilill/local-infra';

test('the suite talks to a real PostgreSQL and a real Redis', async () => {
  const url = await createScratchDatabase(inject('databaseServerUrl'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
  await client.end();
  expect(Number.parseInt(rows[0]!.v, 10)).toBeGreaterThanOrEqual(150000);
  const redis = new Redis(inject('redisUrl'));
  expect(await redis.ping()).toBe('PONG');
  redis.disconnect();
});
