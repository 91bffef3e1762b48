/**
 * The one way the client talks to the server (spec §7): everything under /api, JSON both ways,
 * `Authorization: <stored value>` (`Bearer <jwt>`) whenever a session exists. A failed call
 * throws ApiError carrying a catalogue code (spec §8); a 401 or 403 answer clears the session
 * (spec §4). the stored token is a 15-minute access token, so a 401 to a call that
 * carried one first asks the session store for a fresh token (the refresh cookie) and repeats the
 * call once with it; only a second refusal, or a refused refresh, ends the session.
 *
 * Idempotent commands (docs/decisions/0007): every POST, PUT and DELETE
 * carries an `idempotency-key` header — a random UUID made once per call of apiRequest (one
 * logical command: one apiPost/apiPut by a feature) and sent unchanged by every repeat of that
 * call: the network-failure retries below and the resend after a 401 refresh. The command API
 * answers a repeated key with the first answer and appends nothing (runCommand), so a command
 * whose answer was lost counts once; the key sent again with another body answers 422
 * IDEMPOTENCY_KEY_REUSED. A key the caller passes in `headers` (any letter case) is sent instead of
 * a generated one (the admin refund: one key per confirmed refund). Registration takes it too
 * (a retried registration answers as the first did), and so do password reset, its request, account
 * confirmation, POST /payment/order, an administrator's announcement and the returning members'
 * invitation (docs/decisions/0108). Routes that take no key ignore it:
 * login (a retry opens a second session), the admin replay (a retry while one runs answers
 * CONCURRENCY_CONFLICT), and the reads sent as POST (news, password strength).
 *
 * Retries: a command whose fetch fails at the network level (fetch rejects with
 * a TypeError: no answer at all) is sent again, same key, after RETRY_DELAYS_MS (300 ms, then
 * 1 s): at most two retries. An HTTP answer — any 4xx or 5xx — is never retried here (only the 401
 * refresh above repeats a call), nor is an aborted call (the abort is rethrown at once, also
 * during a pause). GETs are not retried. When every try failed the call throws ApiError
 * GENERIC_ERROR with status 0. On a route that ignores the key a retry is a second
 * request — harmless there.
 */
import { toCatalogueCode, type CatalogueCode } from './errors/catalogue';
import { useSessionStore } from './session-store';

/** All calls go under /api (spec §7); the dev server and the gateway route them. */
export const API_BASE = '/api';

/**
 * A failed call (spec §7): `code` is the answer's `message` field when that is a catalogue code
 * of spec §8; GENERIC_ERROR when it is not or when the answer carried none (network failure,
 * non-JSON body); TOO_MANY_REQUESTS for a 429 without a code. The message is the code.
 */
export class ApiError extends Error {
  constructor(
    readonly code: CatalogueCode,
    readonly status: number,
    /** The answer's Retry-After in seconds (a 429 says when to try again), else null. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/** Retry-After in whole seconds (the form the APIs send), or null when absent or a date. */
function retryAfterOf(response: Response): number | null {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The request header of a command's idempotency key (the command API's `Idempotency-Key`). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The pauses before the retries of a command the network failed: one entry per retry. */
export const RETRY_DELAYS_MS: readonly number[] = [300, 1_000];

/** The methods that run commands: they carry an idempotency key and retry network failures. */
const COMMAND_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['POST', 'PUT', 'DELETE']);

/**
 * A fresh idempotency key: a random UUID (36 characters of the server's pattern
 * /^[A-Za-z0-9_.:-]{8,100}$/). Outside a secure context (plain http on a LAN address) browsers
 * have no randomUUID; 32 random hex digits then.
 */
export function newIdempotencyKey(): string {
  const random = globalThis.crypto as Partial<Crypto> & Pick<Crypto, 'getRandomValues'>;
  if (typeof random.randomUUID === 'function') return random.randomUUID();
  return Array.from(random.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `extra` plus an idempotency key for a command — unless `extra` names one already (it wins). */
function withIdempotencyKey(method: HttpMethod, extra: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!COMMAND_METHODS.has(method)) return extra;
  if (extra && Object.keys(extra).some((name) => name.toLowerCase() === IDEMPOTENCY_KEY_HEADER)) return extra;
  return { ...extra, [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() };
}

/** Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `send`, and when it rejects with a TypeError (fetch's network failure: no answer) and `retry`
 * holds, `send` again after each pause of RETRY_DELAYS_MS. The caller's `send`
 * repeats the same request, idempotency key included.
 * @throws the last failure; an abort (or any other error) at once.
 */
async function sendRetrying(send: () => Promise<Response>, retry: boolean, signal: AbortSignal | undefined): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (!retry || delay === undefined || signal?.aborted || !(error instanceof TypeError)) throw error;
      await pause(delay, signal);
    }
  }
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Extra request headers, e.g. `x-min-position` for read-your-writes; an `idempotency-key` here
   * is sent instead of the generated one.
   */
  headers?: Record<string, string>;
}

/** Options of the GET/POST/PUT shorthands. */
export type CallOptions = Pick<RequestOptions, 'signal' | 'headers'>;

/** The headers every call sends: `extra`, then Authorization from the session as it is now. */
function requestHeaders(extra: Record<string, string> | undefined, base: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...base, ...extra };
  // Read at call time: the value the session holds now (after a login, after a clear).
  const token = useSessionStore.getState().token;
  if (token) headers.authorization = token;
  return headers;
}

/**
 * Sends with the session's token; on a 401 to a call that carried one, refreshes the session
 * once and sends again with the new token. The answer is the last one.
 * @throws what `send` throws (a network failure, an abort).
 */
async function withFreshToken(send: (headers: Record<string, string>) => Promise<Response>, headers: () => Record<string, string>): Promise<Response> {
  const first = headers();
  const response = await send(first);
  if (response.status !== 401 || first.authorization === undefined) return response;
  if (!(await useSessionStore.getState().refresh(first.authorization))) return response;
  void response.body?.cancel().catch(() => undefined);
  return send(headers());
}

/** Spec §4: a 401 or 403 from any call ends the session (a forged, expired or revoked token). */
function clearSessionOn(status: number): void {
  if ((status === 401 || status === 403) && useSessionStore.getState().isAuthenticated) {
    useSessionStore.getState().clear();
  }
}

/**
 * `method` `API_BASE + path` and parse the JSON answer as `T` (trusted: the contract is shared).
 * A command (POST/PUT/DELETE) carries one idempotency key for all its sends and is retried after
 * a network failure (see the module's doc). An aborted call rethrows the abort; any other failure
 * throws ApiError (GENERIC_ERROR, status 0, once the network failed every try).
 */
export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  // Made once here: the retries and the resend after a refresh repeat this one command.
  const extra = withIdempotencyKey(method, options.headers);
  const headers = () => {
    const current = requestHeaders(extra, { accept: 'application/json' });
    if (options.body !== undefined) current['content-type'] = 'application/json';
    return current;
  };
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);

  let response: Response;
  try {
    response = await withFreshToken((sent) => sendRetrying(
      () => fetch(`${API_BASE}${path}`, { method, headers: sent, body, signal: options.signal }),
      COMMAND_METHODS.has(method),
      options.signal,
    ), headers);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    clearSessionOn(response.status);
    const message = (answer as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status, retryAfterOf(response));
  }
  return answer as T;
}

/** GET `API_BASE + path`. */
export function apiGet<T>(path: string, init: CallOptions = {}): Promise<T> {
  return apiRequest<T>('GET', path, init);
}

/** POST `body` to `API_BASE + path`. */
export function apiPost<T>(path: string, body: unknown, init: CallOptions = {}): Promise<T> {
  return apiRequest<T>('POST', path, { ...init, body });
}

/** PUT `body` to `API_BASE + path`. */
export function apiPut<T>(path: string, body: unknown, init: CallOptions = {}): Promise<T> {
  return apiRequest<T>('PUT', path, { ...init, body });
}

/**
 * `method` `API_BASE + path` with the session's Authorization (refreshed once on a 401, as every
 * call) and answers the Response as it came, for answers that are not JSON: files, streams, raw
 * uploads (`body` sent as it is). Not retried: the caller decides. Failures as apiRequest:
 * ApiError with the answer's code (a 401/403 clears the session, spec §4), status 0 for a network
 * failure; an abort rethrows.
 */
export async function apiFetch(
  method: HttpMethod,
  path: string,
  init: CallOptions & { accept: string; body?: BodyInit; contentType?: string },
): Promise<Response> {
  let response: Response;
  try {
    response = await withFreshToken(
      (sent) => fetch(`${API_BASE}${path}`, {
        method, headers: sent, signal: init.signal, cache: 'no-store', ...(init.body !== undefined ? { body: init.body } : {}),
      }),
      () => requestHeaders(init.headers, { accept: init.accept, ...(init.contentType ? { 'content-type': init.contentType } : {}) }),
    );
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  if (!response.ok) {
    clearSessionOn(response.status);
    const body: unknown = await response.json().catch(() => undefined);
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status, retryAfterOf(response));
  }
  return response;
}

/**
 * Opens a server-sent event stream at `API_BASE + path` (GET, `accept: text/event-stream`, the
 * session's Authorization — which EventSource cannot send) and answers the response once its
 * headers arrived, for the caller to read `body`. Failures as apiFetch; an answer without a body
 * is GENERIC_ERROR.
 */
export async function apiOpenStream(path: string, init: CallOptions = {}): Promise<Response> {
  const response = await apiFetch('GET', path, { ...init, accept: 'text/event-stream' });
  if (!response.body) throw new ApiError('GENERIC_ERROR', response.status);
  return response;
}

/** The catalogue code of anything a call threw (ApiError's code, else GENERIC_ERROR). */
export function errorCodeOf(error: unknown): CatalogueCode {
  return error instanceof ApiError ? error.code : 'GENERIC_ERROR';
}
