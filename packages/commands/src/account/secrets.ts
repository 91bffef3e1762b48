/**
 * Passwords and one-time tokens.
 *
 * - Passwords: argon2id (@node-rs/argon2) with the library's defaults, which are OWASP's
 *   recommendation (19 MiB memory, 2 passes, 1 lane); the PHC string keeps its parameters, so
 *   stronger settings later still verify old hashes.
 * - Tokens (account confirmation, password reset): 32 random bytes, base64url (43 characters) in
 *   the mailed link; only their SHA-256 is stored. 256 random bits need no slow hash: nobody can
 *   guess a preimage, and a fast hash lets the token be looked up by its hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id (Algorithm.Argon2id; a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** The argon2id PHC string of a password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

/** True when `password` matches the PHC string `passwordHash`; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/**
 * A hash of a random password with the same parameters: verifying against it when the e-mail is
 * unknown (or the account has no password) takes as long as a real check, so the answer's timing
 * does not tell which e-mails have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummy;
}

/** A new one-time token: the value for the link, and the hash to store. */
export function newToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

/** The stored form of a token: SHA-256 of its text. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

// No 0/O, 1/I/L, 5/S, 8/B: a join code is read aloud and typed from a phone screen.
const JOIN_CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY2345679';

/** A random join code: 8 characters of an unambiguous upper-case alphabet (27^8 ≈ 2.8·10^11). */
export function newJoinCode(): string {
  const bytes = randomBytes(16);
  let code = '';
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely (256 = 9·27 + 13).
    if (byte >= 243) continue;
    code += JOIN_CODE_ALPHABET[byte % JOIN_CODE_ALPHABET.length];
    if (code.length === 8) return code;
  }
  return code.length === 8 ? code : newJoinCode();
}
