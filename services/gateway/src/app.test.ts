/**
 * The gateway's reading of proxy errors: a chunked body that the API cut off shows up
 * as a socket error, sometimes bare, sometimes wrapped by @fastify/reply-from with the socket
 * error as its cause (CI caught the wrapped one answered 503 instead of 413).
 */
import { describe, expect, test } from 'vitest';
import { errorCodes } from './app';

describe('errorCodes', () => {
  test('a bare socket error gives its code', () => {
    expect(errorCodes(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toEqual(['EPIPE']);
  });

  test("reply-from's wrapper gives its own code, then the cause's", () => {
    const socket = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const wrapped = Object.assign(new Error('write EPIPE: write EPIPE', { cause: socket }), { code: 'FST_REPLY_FROM_INTERNAL_SERVER_ERROR' });
    expect(errorCodes(wrapped)).toEqual(['FST_REPLY_FROM_INTERNAL_SERVER_ERROR', 'EPIPE']);
  });

  test('no code, a non-error, and a cause cycle end the chain', () => {
    expect(errorCodes(new Error('plain'))).toEqual([]);
    expect(errorCodes('EPIPE')).toEqual([]);
    const a = Object.assign(new Error('a'), { code: 'A' });
    const b = Object.assign(new Error('b', { cause: a }), { code: 'B' });
    (a as { cause?: unknown }).cause = b;
    expect(errorCodes(b)).toEqual(['B', 'A', 'B', 'A', 'B']);
  });
});
