/**
 * The session (spec §4): authenticated when a token is stored at start; login stores and decodes
 * it; logout and clear reset the identity to its defaults and remove the token; the API client
 * clears the session on any 401 or 403 answer. Other tabs follow through the `storage` event.
 *
 * the stored token is a short-lived access token (15 minutes). What keeps a session is
 * the HttpOnly refresh cookie the login set (path /api/session; the page never sees it), which
 * POST /api/session/refresh trades for a new access token. `refresh()` does that: shortly before
 * the stored token expires (a timer), at start when it already has, and when a call answers 401
 * (the API client, which then repeats the call once). A refused refresh clears the session; one
 * that fails for the network keeps it. Tabs share the cookie, and a refresh cookie works once, so
 * refreshes take turns (one per tab at a time; across tabs through a Web Lock where the browser
 * has them), and a tab that finds a newer token stored by another takes it instead. Logout also
 * ends the session on the server (POST /api/session/logout).
 */
import { create } from 'zustand';
import { ANONYMOUS, decodeStored, type SessionIdentity, storedFromToken, TOKEN_STORAGE_KEY } from './session';

/** The server's session calls (the refresh cookie is sent to this path only). */
const SESSION_API = '/api/session';
/** How long before its expiry the stored token is refreshed, ms. */
export const REFRESH_AHEAD_MS = 60_000;
/** Up to this much is added to the refresh time, ms, so that tabs do not all refresh at once. */
const REFRESH_JITTER_MS = 5_000;
/** The Web Lock the tabs' refreshes take turns on. */
const REFRESH_LOCK = 'sinilill-session-refresh';

interface SessionState {
  /** The stored value, `Bearer <jwt>`: what the API client sends as Authorization. */
  token: string | null;
  isAuthenticated: boolean;
  identity: SessionIdentity;
  /** Stores the token the login answered with; false (and nothing stored) when it cannot be decoded. */
  login: (token: string) => boolean;
  /** The user logs out: the server ends the session, the token is removed. */
  logout: () => void;
  /** The server refused the token (401/403), or it expired and could not be refreshed. */
  clear: () => void;
  /**
   * Gets a new access token with the refresh cookie (POST /api/session/refresh) and stores it.
   * `stale`: the stored value found wanting (default: the current one); if another tab has
   * stored a newer one meanwhile, that one is taken instead. Resolves true with a usable token
   * stored; false otherwise — the session is cleared when the server refused (401/403), kept
   * when the network failed. One refresh at a time: concurrent calls share it. Never rejects.
   */
  refresh: (stale?: string | null) => Promise<boolean>;
}

type SessionData = Pick<SessionState, 'token' | 'isAuthenticated' | 'identity'>;

const LOGGED_OUT: SessionData = { token: null, isAuthenticated: false, identity: ANONYMOUS };

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function readStored(): string | null {
  try {
    return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function writeStored(value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(TOKEN_STORAGE_KEY);
    else storage()?.setItem(TOKEN_STORAGE_KEY, value);
  } catch {
    // Storage refused (privacy mode): the session lasts as long as the page.
  }
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The session for a stored value, or null when the value cannot be used (not a JWT). Schedules
 * the refresh shortly before the token's `exp` (at once when it has passed: an expired access
 * token is refreshed, not dropped — the refresh cookie may well be valid).
 */
function sessionFrom(stored: string | null, now = Date.now()): SessionData | null {
  clearTimeout(refreshTimer);
  if (stored === null) return null;
  const decoded = decodeStored(stored);
  if (!decoded) return null;
  if (decoded.expiresAt !== null) {
    const due = Math.max(0, decoded.expiresAt - now - REFRESH_AHEAD_MS);
    const delay = due === 0 ? 0 : due + Math.floor(Math.random() * REFRESH_JITTER_MS);
    // setTimeout holds at most 2^31-1 ms (~24.8 days); a longer token is checked at the next start.
    if (delay < 2 ** 31 - 1) refreshTimer = setTimeout(() => void useSessionStore.getState().refresh(stored), delay);
  }
  return { token: stored, isAuthenticated: true, identity: decoded.identity };
}

/** True when `stored` decodes and stays valid for more than REFRESH_AHEAD_MS. */
function fresh(stored: string | null, now = Date.now()): stored is string {
  const decoded = stored === null ? null : decodeStored(stored);
  return decoded !== null && (decoded.expiresAt === null || decoded.expiresAt - now > REFRESH_AHEAD_MS);
}

function initialSession(): SessionData {
  const stored = readStored();
  const session = sessionFrom(stored);
  if (!session && stored !== null) writeStored(null);
  return session ?? LOGGED_OUT;
}

/** Runs `work` holding the tabs' refresh lock (without Web Locks: at once). */
function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;
  // request() resolves with what the callback's promise resolves to (the DOM typings nest it).
  return locks ? (locks.request(REFRESH_LOCK, work) as Promise<unknown> as Promise<T>) : work();
}

type RefreshOutcome = { token: string } | 'refused' | 'failed';

/** POST /api/session/refresh with the cookie (sent by the browser; no Authorization). */
async function requestRefresh(): Promise<RefreshOutcome> {
  let response: Response;
  try {
    response = await fetch(`${SESSION_API}/refresh`, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    return 'failed';
  }
  if (response.status === 401 || response.status === 403) return 'refused';
  if (!response.ok) return 'failed';
  const body: unknown = await response.json().catch(() => undefined);
  const token = (body as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? { token } : 'refused';
}

let refreshing: Promise<boolean> | null = null;

export const useSessionStore = create<SessionState>()((set, get) => {
  const reset = () => {
    clearTimeout(refreshTimer);
    writeStored(null);
    set(LOGGED_OUT);
  };
  const login = (token: string) => {
    const stored = storedFromToken(token);
    const session = sessionFrom(stored);
    if (!session) return false;
    writeStored(stored);
    set(session);
    return true;
  };
  const renew = (stale: string | null) => withRefreshLock(async () => {
    // Another tab may have refreshed while this one waited: its token is in the shared storage.
    const stored = readStored();
    if (stored !== stale && fresh(stored)) {
      const session = sessionFrom(stored);
      if (session) {
        set(session);
        return true;
      }
    }
    const outcome = await requestRefresh();
    if (outcome === 'failed') return false;
    if (outcome === 'refused' || !login(outcome.token)) {
      reset();
      return false;
    }
    return true;
  });
  return {
    ...initialSession(),
    login,
    logout: () => {
      // The server forgets the session (and clears the cookie); the page does not wait for it.
      void fetch(`${SESSION_API}/logout`, { method: 'POST', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
      reset();
    },
    clear: reset,
    refresh: (stale = get().token) => {
      refreshing ??= renew(stale).catch(() => false).finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
  };
});

// Logging in or out in another tab changes this one too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    const session = sessionFrom(readStored());
    useSessionStore.setState(session ?? LOGGED_OUT);
  });
}
