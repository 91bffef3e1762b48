/**
 * The session (spec §4): authenticated when a token is stored at start; login stores and decodes
 * it; logout and clear reset the identity to its defaults and remove the token; the API client
 * clears the session on any 401 or 403 answer. Other tabs follow through the `storage` event.
 */
import { create } from 'zustand';
import { ANONYMOUS, decodeStored, type SessionIdentity, storedFromToken, TOKEN_STORAGE_KEY } from './session';

interface SessionState {
  /** The stored value, `Bearer <jwt>`: what the API client sends as Authorization. */
  token: string | null;
  isAuthenticated: boolean;
  identity: SessionIdentity;
  /** Stores the token the login answered with; false (and nothing stored) when it cannot be decoded. */
  login: (token: string) => boolean;
  /** The user logs out. */
  logout: () => void;
  /** The server refused the token (401/403), or it expired. */
  clear: () => void;
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

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The session for a stored value, or null when the value cannot be used (not a JWT, or already
 * expired by its own `exp`; an expired token would only earn a 401). Schedules the clearing at
 * expiry.
 */
function sessionFrom(stored: string | null, now = Date.now()): SessionData | null {
  clearTimeout(expiryTimer);
  if (stored === null) return null;
  const decoded = decodeStored(stored);
  if (!decoded) return null;
  if (decoded.expiresAt !== null) {
    const left = decoded.expiresAt - now;
    if (left <= 0) return null;
    // setTimeout holds at most 2^31-1 ms (~24.8 days); a longer token is checked at the next start.
    if (left < 2 ** 31 - 1) expiryTimer = setTimeout(() => useSessionStore.getState().clear(), left);
  }
  return { token: stored, isAuthenticated: true, identity: decoded.identity };
}

function initialSession(): SessionData {
  const stored = readStored();
  const session = sessionFrom(stored);
  if (!session && stored !== null) writeStored(null);
  return session ?? LOGGED_OUT;
}

export const useSessionStore = create<SessionState>()((set) => {
  const reset = () => {
    clearTimeout(expiryTimer);
    writeStored(null);
    set(LOGGED_OUT);
  };
  return {
    ...initialSession(),
    login: (token) => {
      const stored = storedFromToken(token);
      const session = sessionFrom(stored);
      if (!session) return false;
      writeStored(stored);
      set(session);
      return true;
    },
    logout: reset,
    clear: reset,
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
