/**
 * The session identity (spec §3) and the stored token (spec §4): one localStorage key, `token`,
 * whose value is `Bearer <jwt>`. The token's claims are decoded without verification (spec §7):
 * the server verifies every call, the client only shows who is logged in.
 */
import type { SessionClaims } from '@sinilill/contracts';
import { jwtDecode } from 'jwt-decode';

export const TOKEN_STORAGE_KEY = 'token';
const BEARER = 'Bearer ';

/** Who is logged in (spec §3), plus the derived isAdmin. */
export interface SessionIdentity extends SessionClaims {
  isAdmin: boolean;
}

/** The identity of nobody (spec §3 defaults: not approved, USER, not paid). */
export const ANONYMOUS: SessionIdentity = Object.freeze({
  userId: '',
  fullName: '',
  is_approved: false,
  participantId: null,
  teamId: null,
  role: 'USER',
  isPaid: false,
  isAdmin: false,
});

/** The value stored for a token the login answered with: `Bearer <token>`. */
export function storedFromToken(token: string): string {
  return `${BEARER}${token}`;
}

function intOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/**
 * The identity in a stored value (`Bearer <jwt>`; a bare JWT is read too), or null when it is not
 * a decodable JWT. Missing or mistyped claims take their defaults (spec §3). `expiresAt` is the
 * `exp` claim in ms, when there is one.
 */
export function decodeStored(stored: string): { identity: SessionIdentity; expiresAt: number | null } | null {
  const jwt = stored.startsWith(BEARER) ? stored.slice(BEARER.length).trim() : stored.trim();
  if (!jwt) return null;
  let claims: Record<string, unknown>;
  try {
    claims = jwtDecode<Record<string, unknown>>(jwt);
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const role = claims.role === 'ADMIN' ? 'ADMIN' : 'USER';
  const identity: SessionIdentity = {
    userId: typeof claims.userId === 'string' ? claims.userId : typeof claims.userId === 'number' ? String(claims.userId) : '',
    fullName: typeof claims.fullName === 'string' ? claims.fullName : '',
    is_approved: claims.is_approved === true,
    participantId: intOrNull(claims.participantId),
    teamId: intOrNull(claims.teamId),
    role,
    isPaid: claims.isPaid === true,
    isAdmin: role === 'ADMIN',
  };
  const expiresAt = typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : null;
  return { identity, expiresAt };
}
