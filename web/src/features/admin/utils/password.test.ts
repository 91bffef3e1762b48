import { describe, expect, it } from 'vitest';
import { generatePassword, PASSWORD_ALPHABET, PASSWORD_LENGTH, PASSWORD_MIN_LENGTH, type RandomBytes } from './password';

/** A random source that hands out the given bytes in order (and fails when they run out). */
function bytesFrom(values: readonly number[]): RandomBytes {
  let next = 0;
  return (count) => {
    if (next + count > values.length) throw new Error('ran out of test bytes');
    const out = Uint8Array.from(values.slice(next, next + count));
    next += count;
    return out;
  };
}

describe('generatePassword', () => {
  it('given the default, then 16 letters and digits without look-alikes', () => {
    const password = generatePassword();
    expect(password).toHaveLength(PASSWORD_LENGTH);
    expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    expect(password).toMatch(/[A-Za-z]/);
    expect(password).toMatch(/[0-9]/);
  });

  it('given a byte, then the character at its place in the alphabet (modulo 57)', () => {
    // 0 → 'A', 56 → '9', 57 → 'A' again, 113 → '9'.
    const password = generatePassword(12, bytesFrom([0, 56, 57, 113, 1, 2, 3, 4, 5, 6, 7, 8]));
    expect(password).toBe(`A9A9${PASSWORD_ALPHABET.slice(1, 9)}`);
  });

  it('given bytes of 228 or more, then they are skipped (no modulo bias)', () => {
    const bytes = [228, 255, 240, 0, 56, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(generatePassword(12, bytesFrom(bytes))).toBe(`A9${PASSWORD_ALPHABET.slice(1, 11)}`);
  });

  it('given a draw without a digit, then the whole password is drawn again', () => {
    const lettersOnly = Array.from({ length: 12 }, (_, i) => i);
    const mixed = [0, 56, ...Array.from({ length: 10 }, (_, i) => i + 1)];
    expect(generatePassword(12, bytesFrom([...lettersOnly, ...mixed]))).toBe(`A9${PASSWORD_ALPHABET.slice(1, 11)}`);
  });

  it('given a length below 12 or not whole, then RangeError', () => {
    expect(() => generatePassword(PASSWORD_MIN_LENGTH - 1)).toThrow(RangeError);
    expect(() => generatePassword(12.5)).toThrow(RangeError);
    expect(generatePassword(40)).toHaveLength(40);
  });

  it('given many draws, then every character turns up about equally often', () => {
    const counts = new Map<string, number>();
    const draws = 2_000;
    for (let i = 0; i < draws; i++) for (const char of generatePassword(16)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(PASSWORD_ALPHABET.length);
    const expected = (draws * 16) / PASSWORD_ALPHABET.length;
    // ≈ 561 each; ±25 % is far outside chance (σ ≈ 23) yet catches a modulo bias or a lost range.
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(expected * 0.25);
  });
});
