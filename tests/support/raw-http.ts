/**
 * A minimal HTTP/1.1 client over a plain TCP socket, for the fuzz suite.
 *
 * Node's own client (and fetch) refuses to send what a hostile client may send — control
 * characters in a header value, raw non-ASCII bytes or spaces in the request target, a body that
 * is not valid UTF-8 — so the request is written byte for byte here: the request line, the headers
 * exactly as given, `Host`, `Connection: close`, and the body with its `Content-Length` (or in
 * chunks with `Transfer-Encoding: chunked`). The answer is read until it is complete (its
 * Content-Length, its last chunk, or the server closing), or until its headers for a stream of
 * server-sent events, which never ends by itself.
 */
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target as written on the wire (path and query, already encoded — or not). */
  target: string;
  /** Headers as written, in order (`Host` and `Connection` are added; a `host` given here replaces ours). */
  headers: readonly (readonly [string, string])[];
  /** The body, sent with its Content-Length (or chunked); undefined: none. */
  body?: Buffer;
  /** Send the body with Transfer-Encoding: chunked (in chunks of at most 8 KiB). */
  chunked?: boolean;
}

export interface RawResponse {
  /** The status code, or 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from connecting to the complete answer (or to giving up). */
  ms: number;
  /** No complete answer within the time limit. */
  timedOut: boolean;
  /** The connection broke (reset, refused) before a complete answer: the error's code. */
  broken: string | null;
  /** The answer was a server-sent event stream, cut after its headers. */
  stream: boolean;
}

/** The bytes of `request` as sent to `host:port` (also what a failure report shows). */
export function encodeRequest(request: RawRequest, hostHeader: string): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  const custom = request.headers.some(([name]) => name.toLowerCase() === 'host');
  if (!custom) lines.push(`Host: ${hostHeader}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  let body: Buffer | undefined = request.body;
  if (body !== undefined) {
    if (request.chunked) {
      lines.push('Transfer-Encoding: chunked');
      const parts: Buffer[] = [];
      for (let at = 0; at < body.length; at += 8192) {
        const piece = body.subarray(at, at + 8192);
        parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      }
      parts.push(Buffer.from('0\r\n\r\n'));
      body = Buffer.concat(parts);
    } else {
      lines.push(`Content-Length: ${body.length}`);
    }
  }
  lines.push('Connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return body === undefined ? head : Buffer.concat([head, body]);
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  complete: boolean;
  stream: boolean;
}

/** Parses what has arrived so far; `ended` when the server closed the connection. */
function parse(data: Buffer, method: string, ended: boolean): Parsed | null {
  let offset = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end < 0) return null;
    const head = data.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = data.subarray(end + 4);
    // 1xx answers (100 Continue) precede the real one.
    if (status >= 100 && status < 200) {
      offset = end + 4;
      continue;
    }
    const stream = (headers['content-type'] ?? '').startsWith('text/event-stream');
    if (method === 'HEAD' || status === 204 || status === 304 || stream) {
      return { status, headers, body: Buffer.alloc(0), complete: true, stream };
    }
    if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) {
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', at);
        if (lineEnd < 0) return { status, headers, body: Buffer.concat(chunks), complete: ended, stream };
        const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) return { status, headers, body: Buffer.concat(chunks), complete: true, stream };
        if (size === 0) return { status, headers, body: Buffer.concat(chunks), complete: true, stream };
        if (rest.length < lineEnd + 2 + size + 2) return { status, headers, body: Buffer.concat(chunks), complete: ended, stream };
        chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      return { status, headers, body: rest.subarray(0, n), complete: rest.length >= n || ended, stream };
    }
    return { status, headers, body: rest, complete: ended, stream };
  }
}

/**
 * Sends `request` to `host:port` on a new connection and resolves with the answer; never rejects:
 * a time limit passed, a broken connection or a garbled answer is reported in the result.
 */
export function sendRaw(host: string, port: number, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const started = performance.now();
  const bytes = encodeRequest(request, `${host}:${port}`);
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let settled = false;
    const socket = connect({ host, port });
    const finish = (result: Omit<RawResponse, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...result, ms: performance.now() - started });
    };
    const current = (ended: boolean) => parse(Buffer.concat(received), request.method, ended);
    const timer = setTimeout(() => {
      const partial = current(false);
      finish({ status: partial?.status ?? 0, headers: partial?.headers ?? {}, body: partial?.body ?? Buffer.alloc(0), timedOut: true, broken: null, stream: false });
    }, timeoutMs);
    socket.on('connect', () => {
      // A server may answer (413, 400) and close before the whole body is written: not an error here.
      socket.write(bytes, () => undefined);
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const parsed = current(false);
      if (parsed?.complete) finish({ ...parsed, timedOut: false, broken: null });
    });
    socket.on('end', () => {
      const parsed = current(true);
      if (parsed) finish({ ...parsed, timedOut: false, broken: null });
      else finish({ status: 0, headers: {}, body: Buffer.concat(received), timedOut: false, broken: 'closed without an answer', stream: false });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // An answer that arrived before the reset counts (the server answered and closed mid-body).
      const parsed = current(true);
      if (parsed && parsed.status > 0) finish({ ...parsed, timedOut: false, broken: null });
      else finish({ status: 0, headers: {}, body: Buffer.alloc(0), timedOut: false, broken: error.code ?? error.message, stream: false });
    });
  });
}
