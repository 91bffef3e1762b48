/**
 * The one way the client talks to the server (spec §7): everything under /api, JSON both ways,
 * `Authorization: <stored value>` (`Bearer <jwt>`) whenever a session exists. A failed call
 * throws ApiError carrying a catalogue code (spec §8); a 401 or 403 answer clears the session
 * (spec §4). Issue 13: the stored token is a 15-minute access token, so a 401 to a call that
 * carried one first asks the session store for a fresh token (the refresh cookie) and repeats the
 * call once with it; only a second refusal, or a refused refresh, ends the session.
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
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `x-min-position` for read-your-writes. */
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
 * once and sends again with the new token (issue 13). The answer is the last one.
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
 * An aborted call rethrows the abort; any other failure throws ApiError.
 */
export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const headers = () => {
    const current = requestHeaders(options.headers, { accept: 'application/json' });
    if (options.body !== undefined) current['content-type'] = 'application/json';
    return current;
  };

  let response: Response;
  try {
    response = await withFreshToken((sent) => fetch(`${API_BASE}${path}`, {
      method,
      headers: sent,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    }), headers);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    clearSessionOn(response.status);
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status);
  }
  return body as T;
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
 * Opens a server-sent event stream at `API_BASE + path` (GET, `accept: text/event-stream`, the
 * session's Authorization — which EventSource cannot send) and answers the response once its
 * headers arrived, for the caller to read `body`. Failures as apiRequest: ApiError with the
 * answer's code (a 401/403 clears the session), status 0 for a network failure; an abort rethrows.
 */
export async function apiOpenStream(path: string, init: CallOptions = {}): Promise<Response> {
  let response: Response;
  try {
    response = await withFreshToken(
      (sent) => fetch(`${API_BASE}${path}`, { method: 'GET', headers: sent, signal: init.signal, cache: 'no-store' }),
      () => requestHeaders(init.headers, { accept: 'text/event-stream' }),
    );
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  if (!response.ok || !response.body) {
    clearSessionOn(response.status);
    const body: unknown = await response.json().catch(() => undefined);
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status);
  }
  return response;
}

/** The catalogue code of anything a call threw (ApiError's code, else GENERIC_ERROR). */
export function errorCodeOf(error: unknown): CatalogueCode {
  return error instanceof ApiError ? error.code : 'GENERIC_ERROR';
}
