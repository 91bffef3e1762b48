/**
 * The signed proposal of an activity file: what POST /team/{id}/activity-files
 * read, carried by the client to POST /team/{id}/activity-files/confirm so that nothing is stored
 * between the two and the file is not sent twice. `<payload>.<mac>`, both base64url: the payload is
 * JSON of team, participant, file hash, format, each part's distance (km), date (YYYY-MM-DD or
 * null) and entry type, and expiry (epoch ms); the MAC is HMAC-SHA-256 under a key derived from the app's JWT secret with
 * HKDF-SHA-256 (its own `info`, so it signs nothing else and reveals nothing of the secret).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { DomainError, type ActivityFileFormat } from '@sinilill/domain';

/** How long a proposal may be confirmed, seconds (time to look at a few files, not to keep one). */
export const ACTIVITY_FILE_TOKEN_SECONDS = 30 * 60;

/** One part of a file as its token binds it (what becomes one entry). */
export interface ActivityFilePartClaims {
  /** km, two decimals. */
  distance: number;
  /** YYYY-MM-DD, Europe/Tallinn; null when the file has no time (the member then chooses). */
  performedAt: string | null;
  /** A preset type from the part's sport, or null. */
  entryType: string | null;
}

/** What a proposal token binds. */
export interface ActivityFileClaims {
  teamId: number;
  participantId: number;
  /** 64 lower-case hex digits. */
  sha256: string;
  format: ActivityFileFormat;
  /** Every part, by index (at least one). */
  parts: ActivityFilePartClaims[];
  /** Epoch milliseconds after which the token is refused. */
  expiresAt: number;
}

/** The token key of a JWT secret (HKDF-SHA-256, 32 bytes; `info` v2 since tokens bind parts: a v1 token is refused). */
export function activityFileTokenKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'sinilill', 'activity-file proposal token v2', 32));
}

function macOf(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** Signs a proposal. */
export function signActivityFileToken(key: Buffer, claims: ActivityFileClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${macOf(key, payload).toString('base64url')}`;
}

/**
 * The claims of a token this key signed, if it has not expired at `nowMs`.
 * @throws DomainError INVALID_REQUEST for a token that is malformed, forged, altered or expired.
 */
export function verifyActivityFileToken(key: Buffer, token: string, nowMs: number): ActivityFileClaims {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) throw new DomainError('INVALID_REQUEST', 'malformed proposal token');
  const expected = macOf(key, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DomainError('INVALID_REQUEST', 'proposal token not signed by this server');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ActivityFileClaims;
  if (!(claims.expiresAt > nowMs)) throw new DomainError('INVALID_REQUEST', 'proposal token expired: upload the file again');
  return claims;
}
