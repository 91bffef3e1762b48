/**
 * The `state` of a Strava authorization (OAuth 2, RFC 6749 §10.12: binds the redirect to the
 * request that started it): `<payload>.<mac>`, both base64url; the payload is JSON of the account,
 * its participant, the chosen mode and the expiry (epoch ms); the MAC is HMAC-SHA-256 under a key
 * derived from the app's JWT secret with HKDF-SHA-256 and its own `info`, as activity-file-token.ts
 * does, so it signs nothing else and reveals nothing of the secret. Nothing is stored between
 * the connect and the callback.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@sinilill/domain';

/** How long the member may take on Strava's authorize page, seconds. */
export const STRAVA_STATE_SECONDS = 10 * 60;

/** What a state binds. */
export interface StravaStateClaims {
  userId: string;
  participantId: number;
  mode: 'auto' | 'confirm';
  /** Epoch milliseconds after which the state is refused. */
  expiresAt: number;
}

/** The state key of a JWT secret (HKDF-SHA-256, 32 bytes). */
export function stravaStateKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'sinilill', 'strava oauth state v1', 32));
}

/** The default webhook verify token of a JWT secret (when STRAVA_WEBHOOK_VERIFY_TOKEN is unset): HKDF with its own label, hex. */
export function derivedVerifyToken(jwtSecret: string): string {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'sinilill', 'strava webhook verify token v1', 24)).toString('hex');
}

function macOf(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** Signs a state. */
export function signStravaState(key: Buffer, claims: StravaStateClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${macOf(key, payload).toString('base64url')}`;
}

/**
 * The claims of a state this key signed, if it has not expired at `nowMs`.
 * @throws DomainError STRAVA_STATE_INVALID for a state that is missing, malformed, forged, altered or expired.
 */
export function verifyStravaState(key: Buffer, state: string | undefined, nowMs: number): StravaStateClaims {
  const [payload, mac, extra] = (state ?? '').split('.');
  if (!payload || !mac || extra !== undefined) throw new DomainError('STRAVA_STATE_INVALID', 'malformed state');
  const expected = macOf(key, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DomainError('STRAVA_STATE_INVALID', 'state not signed by this server');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as StravaStateClaims;
  if (!(claims.expiresAt > nowMs)) throw new DomainError('STRAVA_STATE_INVALID', 'state expired');
  return claims;
}

/** Whether two tokens are equal, in time independent of where they differ. */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
