import { describe, expect, test } from 'vitest';
import { fileNameOf } from './my-data';

describe('fileNameOf', () => {
  test('takes the name the server gives, made safe to save', () => {
    expect(fileNameOf('attachment; filename="sinilill-minu-andmed-2025-05-02.json"', 'x.json')).toBe('sinilill-minu-andmed-2025-05-02.json');
    expect(fileNameOf('attachment; filename="../../etc/passwd"', 'x.json')).toBe('..-..-etc-passwd');
  });

  test('falls back without a header or a name in it', () => {
    expect(fileNameOf(null, 'sinilill-minu-andmed-2025-05-02.csv')).toBe('sinilill-minu-andmed-2025-05-02.csv');
    expect(fileNameOf('attachment', 'fallback.csv')).toBe('fallback.csv');
  });
});
