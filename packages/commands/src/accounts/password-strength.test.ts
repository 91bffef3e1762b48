/**
 * The password-strength rule: the weakest passwords — common ones, keyboard
 * runs, Estonian "password" and the person's own e-mail — are refused with PASSWORD_TOO_WEAK; a
 * long passphrase and the admin console's generated passwords pass.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '@sinilill/domain';
import { JUDGED_LENGTH, MIN_PASSWORD_SCORE, assertStrongPassword, ownerWords, passwordScore, type PasswordOwner } from './password-strength';

const MARI: PasswordOwner = { email: 'mari.maasikas@example.ee', fullName: 'Mari Maasikas', teamName: 'Tartu Tammed' };

function refusal(password: string, owner: PasswordOwner = MARI): string | null {
  try {
    assertStrongPassword(password, owner);
    return null;
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
}

describe('assertStrongPassword (zxcvbn score ≥ 2)', () => {
  it.each([
    ['abcdef', 'a sequence (6 characters: the spec’s minimum)'],
    ['123456', 'the commonest password'],
    ['password1', 'a common password with a digit'],
    ['qwerty123', 'a keyboard run'],
    ['salasõna', 'Estonian for "password"'],
    ['salasõna1', 'the same with a digit'],
    ['Parool123', '"parool" capitalised, with digits'],
    ['sinilill', 'the site’s name'],
  ])('refuses %s (%s)', (password) => {
    expect(refusal(password)).toBe('PASSWORD_TOO_WEAK');
  });

  it('refuses the person’s own e-mail, its local part and their name with a year', () => {
    expect(refusal('mari.maasikas@example.ee')).toBe('PASSWORD_TOO_WEAK');
    expect(refusal('mari.maasikas')).toBe('PASSWORD_TOO_WEAK');
    expect(refusal('Maasikas1980')).toBe('PASSWORD_TOO_WEAK');
    expect(refusal('TartuTammed1')).toBe('PASSWORD_TOO_WEAK'); // the team's name
    // The same string is no worse than random letters for someone else: the owner's words count.
    expect(passwordScore('maasikasmari', ownerWords(MARI))).toBeLessThan(passwordScore('maasikasmari'));
  });

  it.each([
    'Sinilill jookseb 2025!',
    'kevadine jooks metsas',
    'correct horse battery staple',
    'a long password', // the README's example ADMIN_PASSWORD
    'Resilience admin 2025!',
  ])('accepts the passphrase %j', (password) => {
    expect(refusal(password)).toBeNull();
    expect(passwordScore(password, ownerWords(MARI))).toBeGreaterThanOrEqual(MIN_PASSWORD_SCORE);
  });

  it('accepts the admin console’s generated passwords (16 random letters and digits)', () => {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
    for (let i = 0; i < 50; i++) {
      const password = Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('');
      expect(refusal(password, { email: 'kasutaja@example.ee', fullName: 'Kasutaja' }), password).toBeNull();
    }
  });

  it(`judges the first ${JUDGED_LENGTH} characters: a weak start is refused whatever follows`, () => {
    expect(refusal(`${'1'.repeat(JUDGED_LENGTH)}Sinilill jookseb 2025!`)).toBe('PASSWORD_TOO_WEAK');
    expect(refusal(`Sinilill jookseb 2025!${'1'.repeat(100)}`)).toBeNull();
  });

  it('finds l33t spellings within its bounded substitutions', () => {
    expect(refusal('p4ssw0rd1')).toBe('PASSWORD_TOO_WEAK');
    expect(refusal('s4l4s0n4')).toBe('PASSWORD_TOO_WEAK');
  });

  it('costs milliseconds per check, tens at most for the worst 128-character passwords', () => {
    passwordScore('warm-up'); // loads the dictionaries once
    const ordinary = ['Sinilill jookseb 2025!', 'kevadine-salasõna-1', 'abcdef', 'Maasikas1980', 'X7kP2mQ9vR4tW8nB'];
    let started = performance.now();
    for (let i = 0; i < 20; i++) for (const password of ordinary) passwordScore(`${password}${i}`, ownerWords(MARI));
    const perOrdinary = (performance.now() - started) / (20 * ordinary.length);
    const worst = ['1234567890'.repeat(13), 'X7kP2mQ9vR4tW8nB'.repeat(8), 'Sinilill jookseb 2025! '.repeat(6), '4@3$1!0'.repeat(19)];
    started = performance.now();
    for (let i = 0; i < 5; i++) for (const password of worst) passwordScore(`${password.slice(0, 127)}${i}`, ownerWords(MARI));
    const perWorst = (performance.now() - started) / (5 * worst.length);
    console.log(`password strength: ${perOrdinary.toFixed(1)} ms per ordinary check, ${perWorst.toFixed(1)} ms per worst-case 128-character check`);
    // Generous bounds (a busy CI machine); measured ~7 ms and ~15 ms here.
    expect(perOrdinary).toBeLessThan(30);
    expect(perWorst).toBeLessThan(150);
  });
});
