/** All calls go under /api (spec §7); the dev server and the gateway route them. */
export const API_BASE = '/api';

/**
 * A failed call (spec §7): `code` is the answer's `message` field, a catalogue code of spec §8,
 * or GENERIC_ERROR when the answer carried none (network failure, non-JSON body).
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/** GET `API_BASE + path` and parse the JSON answer as `T` (trusted: the contract is shared). */
export async function apiGet<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, { headers: { accept: 'application/json' }, signal: init.signal });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('GENERIC_ERROR', 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(typeof message === 'string' ? message : 'GENERIC_ERROR', response.status);
  }
  return body as T;
}
