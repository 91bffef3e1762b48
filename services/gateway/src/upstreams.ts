/**
 * The gateway's upstream lists (many processes of each kind). Each kind of API
 * (COMMAND_API_URLS, QUERY_API_URLS) is a list, balanced round-robin. An upstream that refuses a
 * connection (a killed or restarting process) is passed over for a few seconds. A request that
 * failed before any answer came goes to the next upstream only when sending it twice cannot do
 * anything twice:
 *
 * - reads (GET, HEAD);
 * - commands carrying a usable Idempotency-Key (IDEMPOTENCY_KEY_PATTERN, the command API's docs/decisions/0007):
 *   the second API answers as a repeat if the first had appended (the store keeps event ids
 *   unique), or runs it once if it had not. Such a body is read whole before it is forwarded (at
 *   most the API's own limit), so that it can be sent again;
 * - never a command without a key: the first API may have appended it before its connection
 *   went, and nothing would recognise the second copy. It is answered 503 (the client decides).
 */
import { IDEMPOTENCY_KEY_PATTERN } from '@sinilill/http';

/** How long an upstream that refused a connection is passed over, ms. */
export const UPSTREAM_DOWN_MS = 2_000;

/** Errors (codes in the cause chain) of a connection that could not be made: the upstream is down. */
const CONNECT_FAILURES: readonly string[] = ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * Errors of a connection lost before the answer came (an upstream killed mid-request, a kept-alive
 * socket it had closed): the request may or may not have been acted on.
 */
const CONNECTION_LOST: readonly string[] = ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED'];

/** How a proxied request failed, judged by the codes of its error chain (errorCodes of app.ts). */
export function upstreamFailure(codes: readonly string[]): 'unreachable' | 'lost' | null {
  if (codes.some((code) => CONNECT_FAILURES.includes(code))) return 'unreachable';
  if (codes.some((code) => CONNECTION_LOST.includes(code))) return 'lost';
  return null;
}

/**
 * True when the request may be sent to a second upstream after the first failed: a read, or a
 * command whose Idempotency-Key the command API makes its command id of.
 */
export function mayResend(method: string, headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  const key = headers['idempotency-key'];
  return typeof key === 'string' && IDEMPOTENCY_KEY_PATTERN.test(key);
}

/** Options of UpstreamPool. */
export interface UpstreamPoolOptions {
  /** How long an upstream marked down is passed over, ms (default UPSTREAM_DOWN_MS). */
  downMs?: number;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** One kind's upstreams: round-robin over those not marked down. */
export class UpstreamPool {
  readonly urls: readonly string[];
  private readonly downMs: number;
  private readonly now: () => number;
  private readonly downUntil = new Map<string, number>();
  private cursor = 0;

  /**
   * @param urls base URLs (`http://host:port`), at least one; duplicates count once.
   * @throws Error when `urls` is empty.
   */
  constructor(urls: readonly string[], options: UpstreamPoolOptions = {}) {
    this.urls = [...new Set(urls)];
    if (this.urls.length === 0) throw new Error('an upstream list needs at least one URL');
    this.downMs = options.downMs ?? UPSTREAM_DOWN_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * The next upstream in turn, skipping those in `tried` and those marked down. When every
   * untried one is marked down, the one whose mark ends first (a request is still tried rather
   * than refused: they may all be back); undefined when every one has been tried.
   */
  pick(tried: ReadonlySet<string> = new Set()): string | undefined {
    const now = this.now();
    const count = this.urls.length;
    let fallback: string | undefined;
    let fallbackUntil = Number.POSITIVE_INFINITY;
    for (let step = 0; step < count; step++) {
      const index = (this.cursor + step) % count;
      const url = this.urls[index]!;
      if (tried.has(url)) continue;
      const until = this.downUntil.get(url) ?? 0;
      if (until <= now) {
        this.cursor = (index + 1) % count;
        return url;
      }
      if (until < fallbackUntil) {
        fallback = url;
        fallbackUntil = until;
      }
    }
    return fallback;
  }

  /** The next upstream in turn for a new request (pick with nothing tried: never undefined). */
  next(): string {
    return this.pick() ?? this.urls[0]!;
  }

  /** Passes `url` over for the next downMs (it refused a connection). */
  markDown(url: string): void {
    this.downUntil.set(url, this.now() + this.downMs);
  }

  /** True while `url` is marked down. */
  isDown(url: string): boolean {
    return (this.downUntil.get(url) ?? 0) > this.now();
  }
}
