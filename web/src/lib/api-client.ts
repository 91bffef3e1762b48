/**
 * The one way the client talks to the server (spec §7): everything under /api, JSON both ways,
 * `Authorization: <stored value>` (`Bearer <jwt>`) whenever a session exists. A failed call
 * throws ApiError carrying a catalogue code (spec §8); a 401 or 403 answer clears the session
 * (spec §4).
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
}

/**
 * `method` `API_BASE + path` and parse the JSON answer as `T` (trusted: the contract is shared).
 * An aborted call rethrows the abort; any other failure throws ApiError.
 */
export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // Read at call time: the value the session holds now (after a login, after a clear).
  const token = useSessionStore.getState().token;
  if (token) headers.authorization = token;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    // Spec §4: a 401 or 403 from any call ends the session (a forged, expired or revoked token).
    if ((response.status === 401 || response.status === 403) && useSessionStore.getState().isAuthenticated) {
      useSessionStore.getState().clear();
    }
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(toCatalogueCode(message, response.status), response.status);
  }
  return body as T;
}

/** GET `API_BASE + path`. */
export function apiGet<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  return apiRequest<T>('GET', path, init);
}

/** POST `body` to `API_BASE + path`. */
export function apiPost<T>(path: string, body: unknown, init: { signal?: AbortSignal } = {}): Promise<T> {
  return apiRequest<T>('POST', path, { ...init, body });
}

/** PUT `body` to `API_BASE + path`. */
export function apiPut<T>(path: string, body: unknown, init: { signal?: AbortSignal } = {}): Promise<T> {
  return apiRequest<T>('PUT', path, { ...init, body });
}

/** The catalogue code of anything a call threw (ApiError's code, else GENERIC_ERROR). */
export function errorCodeOf(error: unknown): CatalogueCode {
  return error instanceof ApiError ? error.code : 'GENERIC_ERROR';
}
