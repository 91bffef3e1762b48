/**
 * Password strength: a new password must be hard to guess, not only 6 characters long
 * (spec §5's minimum, PASSWORD_TOO_SHORT, still comes first). The estimate is zxcvbn's
 * (@zxcvbn-ts/core): it finds the cheapest way to build the password from dictionary words (40 000
 * common passwords, English words, names and Wikipedia terms), the person's own data, keyboard
 * patterns, repeats, sequences and dates, and scores the number of guesses that takes:
 *
 * | score | guesses    | e.g.                                                  |
 * |-------|------------|-------------------------------------------------------|
 * | 0     | < 10^3     | abcdef, 123456, password1, the person's own e-mail    |
 * | 1     | < 10^6     | salasõna1, Parool123, Maasikas1980                    |
 * | 2     | < 10^8     | test-password, Kevad2025!                             |
 * | 3, 4  | ≥ 10^8     | a long password, Sinilill jookseb 2025!               |
 *
 * MIN_PASSWORD_SCORE is 2: at the login limits (docs/decisions/0024) an online attacker gets a few hundred
 * guesses a day at one account, so 10^6 guesses take years, while a memorable passphrase passes.
 * Estonian words are not in zxcvbn's dictionaries: LOCAL_WORDS adds the site's and the language's
 * obvious choices (salasõna, parool, sinilill …), ranked like a common-password list.
 *
 * Cost (measured on this 2-core machine; the check runs on the event loop): the dictionaries are
 * loaded once, on the first check (~130 ms). One check then takes ~1–10 ms for ordinary passwords
 * and at most ~20 ms for the worst 128-character one, because only the first JUDGED_LENGTH
 * characters are judged and l33t variants are tried for at most L33T_SUBSTITUTIONS characters:
 * with zxcvbn's defaults (256 characters, 100 substitutions) one check of a long random or
 * digit-heavy password took 100–500 ms. Levenshtein matching (fuzzy dictionary words) stays off:
 * it costs 150–300 ms per check.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
import { DomainError } from '@sinilill/domain';

/** The lowest zxcvbn score (0–4) a new password needs: 2, at least 10^6 guesses. */
export const MIN_PASSWORD_SCORE = 2;

/**
 * How many characters of a password are judged (zxcvbn's maxLength): the first 32. A password
 * whose first 32 characters are strong is strong; one whose first 32 are weak is refused whatever
 * follows. With L33T_SUBSTITUTIONS it bounds one check to ~20 ms (see the module comment).
 */
export const JUDGED_LENGTH = 32;

/**
 * Words a person choosing a password for this site is likely to use that zxcvbn's English and
 * common dictionaries lack, most likely first (a hand-made list, not a frequency count): the
 * site's name, "password" and a few everyday Estonian words, places and greetings.
 */
export const LOCAL_WORDS: readonly string[] = [
  'salasõna', 'parool', 'sinilill', 'salasona', 'sinilille', 'sinililled', 'eesti', 'tallinn',
  'tartu', 'pärnu', 'parnu', 'kevad', 'aprill', 'tere', 'tervist', 'aitäh', 'armastus', 'kallis',
  'kallike', 'kullake', 'päike', 'päikene', 'kiisu', 'kass', 'koer', 'saladus', 'jooks', 'jooksmine',
  'kõnd', 'matk', 'tiim', 'võistkond', 'heategevus', 'annetus', 'lill', 'lilled', 'suvi', 'talv',
  'sügis', 'ilus', 'kaunis', 'kodu', 'perekond', 'vanaema', 'jõulud', 'jaanipäev',
];

/** What is known about the person whose password it is (any of it may be missing). */
export interface PasswordOwner {
  email?: string | null;
  fullName?: string | null;
  /** A team the person registers with (registration only). */
  teamName?: string | null;
}

/**
 * How many characters zxcvbn tries l33t substitutions for (its l33tMaxSubstitutions; default 100):
 * 5 still finds p4ssw0rd and s4l4s0n4, and keeps a check of a digit-heavy password in
 * milliseconds (with 100 it took ~130 ms).
 */
export const L33T_SUBSTITUTIONS = 5;

let estimator: ZxcvbnFactory | null = null;

/** zxcvbn with its dictionaries, built on first use (loading them takes ~130 ms; then kept). */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary, 'local-et': [...LOCAL_WORDS] },
    graphs: adjacencyGraphs,
    maxLength: JUDGED_LENGTH,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
    useLevenshteinDistance: false,
  });
  return estimator;
}

/**
 * The person's own words a guesser tries first: the whole e-mail, its local part and the pieces of
 * it, the e-mail's domain, the full name and each name, the team name and its words, and each of
 * these run together without separators (pieces shorter than 3 characters are left out alone;
 * zxcvbn lower-cases them all).
 */
export function ownerWords(owner: PasswordOwner): string[] {
  const words = new Set<string>();
  const add = (text: string | null | undefined) => {
    const trimmed = text?.trim();
    if (!trimmed) return;
    words.add(trimmed);
    const pieces = trimmed.split(/[^\p{L}\p{N}]+/u).filter((piece) => piece.length > 0);
    for (const piece of pieces) if (piece.length >= 3) words.add(piece);
    if (pieces.length > 1) words.add(pieces.join(''));
  };
  const email = owner.email?.trim() ?? '';
  if (email) {
    add(email);
    const at = email.lastIndexOf('@');
    add(at > 0 ? email.slice(0, at) : email);
    if (at > 0) add(email.slice(at + 1));
  }
  add(owner.fullName);
  add(owner.teamName);
  return [...words];
}

/**
 * zxcvbn's score (0–4) of `password` (its first JUDGED_LENGTH characters), with `ownWords` (see
 * ownerWords) as the person's own dictionary.
 */
export function passwordScore(password: string, ownWords: readonly string[] = []): number {
  return zxcvbn().check(password, [...ownWords]).score;
}

/**
 * Whether `password` is hard enough to guess (score ≥ MIN_PASSWORD_SCORE) for its owner: the rule
 * assertStrongPassword enforces, for POST /api/passwordstrength (the forms check before sending).
 */
export function isStrongPassword(password: string, owner: PasswordOwner = {}): boolean {
  return passwordScore(password, ownerWords(owner)) >= MIN_PASSWORD_SCORE;
}

/**
 * Refuses a password that is too easy to guess (score below MIN_PASSWORD_SCORE), judged with the
 * owner's e-mail, name and team name as words a guesser would try first. Call it after the
 * length check (PASSWORD_TOO_SHORT, VALUE_TOO_LONG come first).
 * @throws DomainError('PASSWORD_TOO_WEAK') (400).
 */
export function assertStrongPassword(password: string, owner: PasswordOwner = {}): void {
  const score = passwordScore(password, ownerWords(owner));
  if (score < MIN_PASSWORD_SCORE) throw new DomainError('PASSWORD_TOO_WEAK', `zxcvbn score ${score} < ${MIN_PASSWORD_SCORE}`);
}
