/**
 * The rush's clients: one per participant, as one browser is one client. Each has its own undici
 * Pool to nginx (up to 6 connections, a browser's limit per origin over HTTP/1.1) bound to a
 * loopback address of its own (127.0.1.1, 127.0.1.2, …: Linux routes all of 127/8 to this host),
 * so that nginx, and the APIs behind it through X-Forwarded-For, see a thousand people rather than
 * one address — the per-address limits on /api/login are then each person's own, as on the
 * evening. Every call sends what the web client sends (lib/api-client.ts): `Authorization:
 * Bearer <token>` once logged in, JSON, `Accept-Encoding: gzip, br` as a browser does, and an
 * `Idempotency-Key` on a command.
 *
 * A call waits for its answer up to CALL_PATIENCE_MS, past nginx's own 60 s read timeout (after
 * which nginx answers 503 itself): as a browser's fetch, which has no timeout of its own, a client
 * here learns what the server answered rather than giving up first. A command that got no answer
 * at all (the connection failed) is sent again with the same Idempotency-Key after 300 ms and
 * 1 s, as lib/api-client.ts does; an HTTP answer, 5xx included, is never retried.
 *
 * The Recorder keeps every call's time (ms, from the request's start until its whole body was
 * read) and outcome by route, for the p50/p99 and the error count per route. An error is a
 * failed call (no answer: its code, e.g. ECONNRESET) or an answer outside 2xx (its status and
 * catalogue code).
 */
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { percentile } from '../report';

/** The routes the rush calls, as the table names them. */
export type RushRoute =
  | 'POST /api/entry'
  | 'GET /api/team/{id}'
  | 'GET /api/team/{id}/participants'
  | 'GET /api/team/{id}/entries'
  | 'GET /api/settings'
  | 'GET /api/editions'
  | 'GET /api/stats'
  | 'GET /api/team/{id}/live (until its first byte)';

/** One answered (or failed) call. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent (compressed when the answer says so); empty for a failed call. */
  body: Buffer;
  ms: number;
}

/** Times and outcomes by route, errors by route and cause. */
export class Recorder {
  readonly times = new Map<RushRoute, number[]>();
  readonly errors = new Map<string, number>();
  record(route: RushRoute, ms: number, error: string | null): void {
    let list = this.times.get(route);
    if (!list) this.times.set(route, (list = []));
    list.push(ms);
    if (error !== null) this.error(`${route}: ${error}`);
  }

  /** An error that is no single call's (a stream that dropped, an entry never heard of). */
  error(what: string): void {
    this.errors.set(what, (this.errors.get(what) ?? 0) + 1);
  }

  errorCount(): number {
    let total = 0;
    for (const count of this.errors.values()) total += count;
    return total;
  }

  /** p50 and p99 of a route's times, ms, and its number of calls. */
  figures(route: RushRoute): { calls: number; p50: number; p99: number } {
    const sorted = [...(this.times.get(route) ?? [])].sort((a, b) => a - b);
    return { calls: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}

/** How long a call waits for its answer's headers and between its body's bytes, ms (see the module comment). */
export const CALL_PATIENCE_MS = 90_000;

/** The web client's pauses before it sends a command again after a network failure (lib/api-client.ts RETRY_DELAYS_MS). */
const RETRY_DELAYS_MS = [300, 1000] as const;

/** The loopback address of client `index` (0-based): 127.0.1.1 … 127.0.1.250, 127.0.2.1 … */
export function clientAddress(index: number): string {
  return `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

/** An answer's body as text, decompressed when it came gzip- or br-encoded. */
export function bodyText(answer: Answer): string {
  const encoding = String(answer.headers['content-encoding'] ?? '');
  if (encoding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

/** The catalogue code of an error answer (`{ message }`), or '' when it has none. */
function codeOf(answer: Answer): string {
  try {
    const parsed = JSON.parse(bodyText(answer)) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : '';
  } catch {
    return '';
  }
}

/**
 * The positions of the complete `change` events at the start of `buffer` (WHATWG server-sent
 * events: `event:` and `data:` lines, a blank line ends an event; comments such as `: keep-alive`
 * and other events skipped), and what is left of it: the start of an event still arriving.
 */
export function takeChanges(buffer: string): { positions: number[]; rest: string } {
  const positions: number[] = [];
  let rest = buffer;
  for (let end = rest.indexOf('\n\n'); end >= 0; end = rest.indexOf('\n\n')) {
    const lines = rest.slice(0, end).split('\n');
    rest = rest.slice(end + 2);
    if (!lines.includes('event: change')) continue;
    const data = lines.find((line) => line.startsWith('data: '));
    if (data) positions.push((JSON.parse(data.slice(6)) as { position: number }).position);
  }
  return { positions, rest };
}

/** One change event of a team's live stream, and when it arrived (performance.now(), ms). */
export interface HeardChange { position: number; at: number }

/** One participant's browser. */
export class RushClient {
  private readonly pool: Pool;
  token: string | null = null;

  constructor(readonly origin: string, readonly address: string, private readonly recorder: Recorder) {
    this.pool = new Pool(origin, { connections: 6, localAddress: address, pipelining: 1 });
  }

  /**
   * One call (a command: with the web client's retries); never throws; status 0 when no answer
   * came. `route` names it for the recorder (null: not recorded, the set-up's calls). Each
   * attempt is recorded: a status outside 2xx, no answer, or `isError(answer)` saying why, counts
   * as an error.
   */
  async call(route: RushRoute | null, method: 'GET' | 'POST', path: string, options: {
    body?: unknown; idempotencyKey?: string; minPosition?: number; isError?: (answer: Answer) => string | null;
  } = {}): Promise<Answer> {
    let answer = await this.once(route, method, path, options);
    // A command without an answer is sent again with its key (the web client's retries); a GET is not.
    for (const delay of method === 'POST' ? RETRY_DELAYS_MS : []) {
      if (answer.status !== 0) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      answer = await this.once(route, method, path, options);
    }
    return answer;
  }

  private async once(route: RushRoute | null, method: 'GET' | 'POST', path: string, options: {
    body?: unknown; idempotencyKey?: string; minPosition?: number; isError?: (answer: Answer) => string | null;
  }): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'gzip, br' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.minPosition) headers['x-min-position'] = String(options.minPosition);
    const started = performance.now();
    try {
      const response = await this.pool.request({
        method, path, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        headersTimeout: CALL_PATIENCE_MS, bodyTimeout: CALL_PATIENCE_MS,
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      const answer: Answer = { status: response.statusCode, headers: response.headers, body, ms: performance.now() - started };
      if (route) {
        const failed = answer.status < 200 || answer.status > 299
          ? `${answer.status} ${codeOf(answer)}`.trim()
          : options.isError?.(answer) ?? null;
        this.recorder.record(route, answer.ms, failed);
      }
      return answer;
    } catch (error) {
      const ms = performance.now() - started;
      const code = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
      if (route) this.recorder.record(route, ms, `no answer (${code})`);
      return { status: 0, headers: {}, body: Buffer.alloc(0), ms };
    }
  }

  /**
   * Opens GET /api/team/{teamId}/live and calls `onChange` for each `change` event (WHATWG
   * server-sent events: `event:` and `data:` lines, a blank line ends an event) until `signal`
   * aborts. Resolves once the stream answered its first bytes (true) or failed to open (false);
   * `ended` resolves when it closes, with whether it closed other than by the abort.
   */
  async follow(teamId: number, signal: AbortSignal, onChange: (change: HeardChange) => void): Promise<{ opened: boolean; ended: Promise<boolean> }> {
    const route: RushRoute = 'GET /api/team/{id}/live (until its first byte)';
    const started = performance.now();
    let response;
    try {
      response = await this.pool.request({
        method: 'GET', path: `/api/team/${teamId}/live`, signal, bodyTimeout: 0, headersTimeout: CALL_PATIENCE_MS,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${this.token}` },
      });
    } catch (error) {
      this.recorder.error(`${route}: no answer (${(error as { code?: string }).code ?? String(error)})`);
      return { opened: false, ended: Promise.resolve(true) };
    }
    if (response.statusCode !== 200) {
      this.recorder.error(`${route}: ${response.statusCode}`);
      await response.body.dump();
      return { opened: false, ended: Promise.resolve(true) };
    }
    const body = response.body;
    const iterator = body[Symbol.asyncIterator]();
    // The first bytes (': connected') say the stream is open end to end.
    const first = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
    this.recorder.record(route, performance.now() - started, first.done ? 'closed before its first byte' : null);
    let buffer = first.done ? '' : Buffer.from(first.value as Uint8Array).toString('utf8');
    const ended = (async () => {
      const take = () => {
        const { positions, rest } = takeChanges(buffer);
        buffer = rest;
        const at = performance.now();
        for (const position of positions) onChange({ position, at });
      };
      take();
      try {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          buffer += Buffer.from(next.value as Uint8Array).toString('utf8');
          take();
        }
        return !signal.aborted;
      } catch {
        return !signal.aborted;
      }
    })();
    return { opened: !first.done, ended };
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }
}
