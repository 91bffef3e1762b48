/**
 * Follows a server-sent event stream of the API with fetch, so that it carries the session's
 * Authorization header (EventSource cannot send one), parsed by eventsource-parser. A dropped or
 * failed connection is opened again after a backoff (reconnect-policy.ts) until the signal aborts
 * or the server refuses for good (401/403/404 …).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError, apiOpenStream } from './api-client';
import { DEFAULT_BACKOFF, reconnectDelayMs, shouldReconnect, type BackoffOptions } from './reconnect-policy';

export type { EventSourceMessage };

export interface EventStreamOptions {
  /** Under API_BASE, e.g. `/team/7/live`. */
  path: string;
  /** Ends the stream (unmount). */
  signal: AbortSignal;
  /** Each event (`event` is undefined for unnamed ones); comments such as `: keep-alive` are skipped. */
  onEvent: (message: EventSourceMessage) => void;
  /** The stream is open; `reconnected` when it was open before and dropped (events may have been missed). */
  onOpen?: (info: { reconnected: boolean }) => void;
  /** The server refused for good; the stream stops. */
  onGiveUp?: (error: ApiError) => void;
  backoff?: BackoffOptions;
  /** Randomness for the jitter (tests pass a constant). */
  random?: () => number;
  /** Waits `ms` or until the signal aborts (tests pass an instant one). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Reads the stream at `path` until `signal` aborts or the server refuses for good. Resolves then;
 * never rejects.
 */
export async function followEventStream(options: EventStreamOptions): Promise<void> {
  const { path, signal, onEvent } = options;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  let backoff = options.backoff ?? DEFAULT_BACKOFF;
  let attempt = 0;
  let wasOpen = false;
  const parser = createParser({
    onEvent,
    // The server may ask for another reconnection delay (the `retry:` field).
    onRetry: (ms) => {
      backoff = { ...backoff, initialMs: ms };
    },
  });

  while (!signal.aborted) {
    try {
      const response = await apiOpenStream(path, { signal });
      parser.reset();
      options.onOpen?.({ reconnected: wasOpen });
      wasOpen = true;
      attempt = 0;
      await feedBody(response, parser.feed.bind(parser), signal);
      // The server closed the stream (a restart, a proxy's timeout): open it again.
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && !shouldReconnect(error.status)) {
        options.onGiveUp?.(error);
        return;
      }
    }
    if (signal.aborted) return;
    await sleep(reconnectDelayMs(attempt, backoff, random()), signal);
    attempt += 1;
  }
}

async function feedBody(response: Response, feed: (chunk: string) => void, signal: AbortSignal): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!signal.aborted) {
      const { value, done } = await reader.read();
      if (done) break;
      feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
