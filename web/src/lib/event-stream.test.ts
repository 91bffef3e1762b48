import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { followEventStream, type EventSourceMessage } from './event-stream';

/** A streaming answer that sends `chunks` and then closes. */
function streamOf(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('followEventStream', () => {
  it('parses events split across chunks, skips keep-alive comments and reconnects after a close', async () => {
    const answers = [
      () => streamOf([': keep-alive\n\n', 'event: change\ndata: {"teamId":7,', '"position":41}\n\n']),
      () => streamOf(['event: change\ndata: {"teamId":7,"position":42}\n\n']),
    ];
    const controller = new AbortController();
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => {
      const next = answers.shift();
      if (!next) {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      }
      return next();
    });
    vi.stubGlobal('fetch', fetchMock);
    const events: EventSourceMessage[] = [];
    const opens: boolean[] = [];
    const delays: number[] = [];
    await followEventStream({
      path: '/team/7/live',
      signal: controller.signal,
      onEvent: (event) => events.push(event),
      onOpen: ({ reconnected }) => opens.push(reconnected),
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['change', { teamId: 7, position: 41 }],
      ['change', { teamId: 7, position: 42 }],
    ]);
    expect(opens).toEqual([false, true]);
    // A successful open resets the backoff: each close waits the first delay.
    expect(delays).toEqual([1_000, 1_000]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/team/7/live');
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).accept).toBe('text/event-stream');
  });

  it('backs off on network and server errors, and gives up on 401', async () => {
    const answers = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => json(503, {}),
      () => json(502, {}),
      () => json(401, { message: 'UNAUTHORIZED' }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => (answers.shift() ?? (() => json(500, {})))()),
    );
    const delays: number[] = [];
    let gaveUp: ApiError | undefined;
    await followEventStream({
      path: '/team/7/live',
      signal: new AbortController().signal,
      onEvent: () => undefined,
      onGiveUp: (error) => {
        gaveUp = error;
      },
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(delays).toEqual([1_000, 2_000, 4_000]);
    expect(gaveUp).toBeInstanceOf(ApiError);
    expect(gaveUp?.status).toBe(401);
  });

  it('uses the retry interval the server asks for', async () => {
    const controller = new AbortController();
    const answers = [() => streamOf(['retry: 5000\n\n']), () => json(503, {})];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const next = answers.shift();
        if (!next) {
          controller.abort();
          throw new DOMException('aborted', 'AbortError');
        }
        return next();
      }),
    );
    const delays: number[] = [];
    await followEventStream({
      path: '/x',
      signal: controller.signal,
      onEvent: () => undefined,
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(delays).toEqual([5_000, 10_000]);
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    await followEventStream({ path: '/x', signal: controller.signal, onEvent: () => undefined });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
