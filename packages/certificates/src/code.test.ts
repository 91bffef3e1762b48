import { describe, expect, test } from 'vitest';
import { certificateCode, normaliseCertificateCode, readCertificateCode } from './code';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

describe('certificate codes', () => {
  test('a code reads back as what it certifies, grouped in four groups of four Crockford characters', () => {
    for (const subject of [
      { kind: 'participant' as const, id: 1, edition: 2025 },
      { kind: 'team' as const, id: 121, edition: 2025 },
      { kind: 'participant' as const, id: 999_999_999, edition: 2127 },
    ]) {
      const code = certificateCode(subject, SECRET);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
      expect(readCertificateCode(code, SECRET)).toEqual(subject);
    }
  });

  test('typed loosely (lower case, spaces, O for 0, I and L for 1) it still verifies', () => {
    const code = certificateCode({ kind: 'team', id: 7, edition: 2025 }, SECRET);
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l');
    expect(readCertificateCode(typed, SECRET)).toEqual({ kind: 'team', id: 7, edition: 2025 });
    expect(normaliseCertificateCode(typed)).toBe(code);
  });

  test('every single changed character is refused', () => {
    const code = certificateCode({ kind: 'participant', id: 42, edition: 2025 }, SECRET);
    const chars = code.replace(/-/g, '');
    for (let i = 0; i < chars.length; i++) {
      const flipped = chars.slice(0, i) + (chars[i] === 'A' ? 'B' : 'A') + chars.slice(i + 1);
      expect(readCertificateCode(flipped, SECRET), `position ${i}`).toBeNull();
    }
  });

  test('a code signed with another secret, or for another person, is refused', () => {
    const code = certificateCode({ kind: 'participant', id: 42, edition: 2025 }, SECRET);
    expect(readCertificateCode(code, `${SECRET}-other`)).toBeNull();
    // The id of a team with the participant's signature: the kind is signed too.
    const other = certificateCode({ kind: 'team', id: 42, edition: 2025 }, SECRET);
    expect(other).not.toBe(code);
    expect(other.slice(0, 2)).not.toBe(code.slice(0, 2));
  });

  test('malformed input is refused, not thrown', () => {
    for (const text of ['', 'abc', 'UUUU-UUUU-UUUU-UUUU', '0000-0000-0000-0000', 'A'.repeat(17), '!!!!-!!!!-!!!!-!!!!']) {
      expect(readCertificateCode(text, SECRET)).toBeNull();
    }
    expect(normaliseCertificateCode('nope')).toBeNull();
  });

  test('ids and years outside the code\'s range are a programming error', () => {
    expect(() => certificateCode({ kind: 'team', id: 0, edition: 2025 }, SECRET)).toThrow(RangeError);
    expect(() => certificateCode({ kind: 'team', id: 2 ** 30, edition: 2025 }, SECRET)).toThrow(RangeError);
    expect(() => certificateCode({ kind: 'team', id: 1, edition: 1999 }, SECRET)).toThrow(RangeError);
  });
});
