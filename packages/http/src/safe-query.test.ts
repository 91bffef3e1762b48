/**
 * The boundary's safe-text check covers the query string (the fuzz suite found
 * `HEAD /api/stats/teams?q=%00` answered 500 by PostgreSQL): Fastify's parsed query objects have a
 * prototype of their own, which a check of own keys alone passes over.
 */
import { expect, test } from 'vitest';
import { createApp } from './index';

test('a query string holding NUL or a control character is refused INVALID_CHARACTERS, for GET and HEAD, before any handler runs', async () => {
  const app = createApp();
  let handled = 0;
  app.get('/api/search', async () => { handled += 1; return { ok: true }; });
  await app.ready();
  for (const method of ['GET', 'HEAD'] as const) {
    for (const url of ['/api/search?q=%00', '/api/search?q=a%01b', '/api/search?%00=x']) {
      const answer = await app.inject({ method, url });
      expect([method, url, answer.statusCode]).toEqual([method, url, 400]);
      if (method === 'GET') expect(answer.json()).toEqual({ message: 'INVALID_CHARACTERS' });
    }
  }
  expect((await app.inject({ method: 'GET', url: '/api/search?q=%C3%B5un' })).statusCode).toBe(200);
  expect(handled).toBe(1);
  await app.close();
});
