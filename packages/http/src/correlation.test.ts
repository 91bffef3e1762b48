/**
 * The correlation id of createApp's requests: a valid `x-correlation-id` is
 * the request id, labelled `correlationId` in every log line of the request and echoed in the
 * answer; a bad one is replaced by a fresh UUID, never echoed or logged.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp } from './index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An app with one route, its pino lines parsed into `lines`. */
function appWithLog(lines: Record<string, unknown>[]): FastifyInstance {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = createApp({ logger: { level: 'info', stream } });
  app.get('/api/thing', async (request) => {
    request.log.info('inside the handler');
    return { id: request.id };
  });
  return app;
}

describe('correlation id', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  test('a valid x-correlation-id is the request id, in every log line of the request and in the answer', async () => {
    const lines: Record<string, unknown>[] = [];
    app = appWithLog(lines);
    const response = await app.inject({ url: '/api/thing', headers: { 'x-correlation-id': 'web-4f1c:retry.2_x' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-correlation-id']).toBe('web-4f1c:retry.2_x');
    expect(response.json()).toEqual({ id: 'web-4f1c:retry.2_x' });
    const requestLines = lines.filter((line) => line.correlationId !== undefined);
    expect(requestLines.map((line) => line.msg)).toEqual(['incoming request', 'inside the handler', 'request completed']);
    expect(requestLines.every((line) => line.correlationId === 'web-4f1c:retry.2_x')).toBe(true);
    // Fastify's own label is replaced, not added to.
    expect(lines.some((line) => 'reqId' in line)).toBe(false);
  });

  test('without one, each request gets a fresh UUID, echoed and logged', async () => {
    const lines: Record<string, unknown>[] = [];
    app = appWithLog(lines);
    const [first, second] = [await app.inject({ url: '/api/thing' }), await app.inject({ url: '/api/thing' })];
    const ids = [first.headers['x-correlation-id'], second.headers['x-correlation-id']];
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    expect(lines.filter((line) => line.msg === 'inside the handler').map((line) => line.correlationId)).toEqual(ids);
  });

  test.each([
    ['too long', 'a'.repeat(300)],
    ['too short', 'abc'],
    ['with spaces', 'hello correlation id'],
    ['with other characters', 'id-<script>'],
    ['two headers joined', 'abcdefgh, ijklmnop'],
  ])('a bad one (%s) is replaced by a UUID, neither echoed nor logged', async (_case, bad) => {
    const lines: Record<string, unknown>[] = [];
    app = appWithLog(lines);
    const response = await app.inject({ url: '/api/thing', headers: { 'x-correlation-id': bad } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-correlation-id']).toMatch(UUID);
    expect(JSON.stringify(lines)).not.toContain(bad);
    expect(lines.find((line) => line.msg === 'inside the handler')?.correlationId).toBe(response.headers['x-correlation-id']);
  });

  test('error and not-found answers echo it too', async () => {
    app = appWithLog([]);
    app.get('/api/broken', async () => {
      throw new Error('boom');
    });
    const broken = await app.inject({ url: '/api/broken', headers: { 'x-correlation-id': 'corr-broken-1' } });
    expect(broken.statusCode).toBe(500);
    expect(broken.headers['x-correlation-id']).toBe('corr-broken-1');
    const missing = await app.inject({ url: '/api/nothing-here', headers: { 'x-correlation-id': 'corr-missing-1' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-correlation-id']).toBe('corr-missing-1');
  });
});
