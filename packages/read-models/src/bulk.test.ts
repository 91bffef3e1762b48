import { describe, expect, test } from 'vitest';
import { arrayLiteral } from './bulk';

describe('arrayLiteral', () => {
  test('numbers, booleans, nulls and dates as PostgreSQL reads them', () => {
    const rows = [{ v: 1 }, { v: -25 }, { v: null }, { v: undefined }, {}];
    expect(arrayLiteral(rows, 'v')).toBe('{1,-25,NULL,NULL,NULL}');
    expect(arrayLiteral([{ v: true }, { v: false }], 'v')).toBe('{t,f}');
    expect(arrayLiteral([{ v: new Date('2025-04-01T04:00:00.123Z') }], 'v')).toBe('{2025-04-01T04:00:00.123Z}');
  });

  test('plain words bare; anything else quoted with backslash and quote escaped', () => {
    const rows = [{ v: 'WALKING' }, { v: '2025-04-20' }, { v: 'Rõõmsad Ilvesed 7' }, { v: 'a,b' }, { v: 'say "hi"' }, { v: 'back\\slash' }, { v: '' }, { v: 'null' }, { v: '{x}' }];
    expect(arrayLiteral(rows, 'v')).toBe('{WALKING,2025-04-20,"Rõõmsad Ilvesed 7","a,b","say \\"hi\\"","back\\\\slash","","null","{x}"}');
  });

  test('refuses a value that is not a scalar', () => {
    expect(() => arrayLiteral([{ v: { a: 1 } }], 'v')).toThrow(TypeError);
  });
});
