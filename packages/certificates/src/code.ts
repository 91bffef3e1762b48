/**
 * A certificate's signed short code: who it is for (a participant or a team, by
 * id) and for which edition, with a truncated HMAC so that it cannot be forged, written as 16
 * Crockford base32 characters in groups of four (`7K2M-9QXA-4T0B-HVCE`).
 *
 * 80 bits, most significant first: kind (1 bit: 0 participant, 1 team), edition year − 2000
 * (7 bits: 2000–2127), id (30 bits: ids up to 999 999 999, the APIs' ID_PATTERN), then the first
 * 42 bits of HMAC-SHA256 over `certificate:v1:<kind>:<year>:<id>`. The key is derived from the
 * session tokens' secret (JWT_SECRET) with HKDF-SHA256 and an info string of its own, so no new
 * setting is needed and the key signs nothing else; changing the secret voids every code.
 * 42 bits make a blind guess succeed once in 4.4·10¹²; only the verification route can tell,
 * and it reads no personal data for a refused code.
 *
 * Crockford base32 (https://www.crockford.com/base32.html): digits and upper-case letters
 * without I, L, O and U; when reading, case is ignored, O reads as 0, I and L as 1, and hyphens
 * and spaces are skipped, so a code typed from paper still verifies.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { CertificateKind } from '@sinilill/contracts';

/** What a code certifies. `id` is the participant's or the team's id. */
export interface CertificateSubject {
  kind: CertificateKind;
  id: number;
  /** The edition's year (2025). */
  edition: number;
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LOOK_ALIKES: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' };
const CODE_CHARS = 16;
const MAC_BITS = 42n;
const ID_BITS = 30n;
const YEAR_BITS = 7n;
const MAX_ID = 2 ** 30 - 1;

/** The HMAC key of the codes: HKDF-SHA256 of `secret` (JWT_SECRET), 32 bytes. */
function codeKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'sinilill', 'certificate-code v1', 32));
}

/** The first 42 bits of the subject's HMAC, as a bigint. */
function macOf(subject: CertificateSubject, key: Buffer): bigint {
  const digest = createHmac('sha256', key).update(`certificate:v1:${subject.kind}:${subject.edition}:${subject.id}`).digest();
  return BigInt(`0x${digest.subarray(0, 6).toString('hex')}`) >> (48n - MAC_BITS);
}

/** 16 Crockford characters of an 80-bit value, grouped by four with hyphens. */
function encode(value: bigint): string {
  let text = '';
  for (let i = CODE_CHARS - 1; i >= 0; i--) text += ALPHABET[Number((value >> BigInt(i * 5)) & 31n)];
  return text.match(/.{4}/g)!.join('-');
}

/** The 80-bit value of a typed code, or null when it is not 16 Crockford characters. */
function decode(text: string): bigint | null {
  const chars = text.toUpperCase().replace(/[\s-]/g, '');
  if (chars.length !== CODE_CHARS) return null;
  let value = 0n;
  for (const raw of chars) {
    const digit = ALPHABET.indexOf(LOOK_ALIKES[raw] ?? raw);
    if (digit < 0) return null;
    value = (value << 5n) | BigInt(digit);
  }
  return value;
}

/**
 * The printed code of `subject`, signed with a key derived from `secret` (the JWT secret).
 * @throws RangeError for an id outside 1…2³⁰−1 or an edition outside 2000–2127 (a bug, not input).
 */
export function certificateCode(subject: CertificateSubject, secret: string): string {
  if (!Number.isInteger(subject.id) || subject.id < 1 || subject.id > MAX_ID) throw new RangeError(`certificate id ${subject.id}`);
  const year = subject.edition - 2000;
  if (!Number.isInteger(year) || year < 0 || year >= 2 ** Number(YEAR_BITS)) throw new RangeError(`certificate edition ${subject.edition}`);
  const payload = ((subject.kind === 'team' ? 1n : 0n) << (YEAR_BITS + ID_BITS)) | (BigInt(year) << ID_BITS) | BigInt(subject.id);
  return encode((payload << MAC_BITS) | macOf(subject, codeKey(secret)));
}

/**
 * What a typed code certifies, or null when it is malformed or its signature is not the one
 * `secret` gives (a forged or mistyped code, or one signed under another secret).
 */
export function readCertificateCode(text: string, secret: string): CertificateSubject | null {
  const value = decode(text);
  if (value === null) return null;
  const mac = value & ((1n << MAC_BITS) - 1n);
  const payload = value >> MAC_BITS;
  const id = Number(payload & ((1n << ID_BITS) - 1n));
  const year = Number((payload >> ID_BITS) & ((1n << YEAR_BITS) - 1n));
  const subject: CertificateSubject = { kind: payload >> (YEAR_BITS + ID_BITS) === 1n ? 'team' : 'participant', id, edition: 2000 + year };
  if (id < 1) return null;
  const expected = Buffer.from(macOf(subject, codeKey(secret)).toString(16).padStart(11, '0'));
  const given = Buffer.from(mac.toString(16).padStart(11, '0'));
  return timingSafeEqual(expected, given) ? subject : null;
}

/** A typed code in its printed form (upper case, look-alikes read, grouped), or null when malformed. */
export function normaliseCertificateCode(text: string): string | null {
  const value = decode(text);
  return value === null ? null : encode(value);
}
