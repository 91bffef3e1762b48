import { describe, expect, test } from 'vitest';
import { arrayLiteral } from './bulk';

describe('arrayLiteral', () => {
  test('numbers, booleans, nulls and dates as PostgreSQL reads them', () => {
    const rows = [{ v: 1 }, { v: -25 }, { v: null }, { v: undefined }, {}];
    expect(arrayLiteral(rows, 'v', 'int')).toBe('{1,-25,NULL,NULL,NULL}');
    expect(arrayLiteral([{ v: true }, { v: false }], 'v', 'bool')).toBe('{t,f}');
    expect(arrayLiteral([{ v: new Date('2025-04-01T04:00:00.123Z') }], 'v', 'timestamptz')).toBe('{2025-04-01T04:00:00.123Z}');
    expect(arrayLiteral([{ v: '2025-04-20' }, { v: '2025-04-01T04:00:00.123Z' }, { v: '2025-04-01 04:00:00+00' }], 'v', 'timestamptz'))
      .toBe('{2025-04-20,2025-04-01T04:00:00.123Z,"2025-04-01 04:00:00+00"}');
  });

  test('text always quoted, backslash and double quote escaped, NULL and empty text kept apart from NULL', () => {
    const rows = [{ v: 'WALKING' }, { v: 'Rõõmsad Ilvesed 7' }, { v: 'a,b' }, { v: 'say "hi"' }, { v: 'back\\slash' }, { v: '' }, { v: 'NULL' }, { v: '{x}' }, { v: null }];
    expect(arrayLiteral(rows, 'v', 'text')).toBe('{"WALKING","Rõõmsad Ilvesed 7","a,b","say \\"hi\\"","back\\\\slash","","NULL","{x}",NULL}');
  });

  test('refuses a value that is not a scalar', () => {
    expect(() => arrayLiteral([{ v: { a: 1 } }], 'v')).toThrow(TypeError);
  });
});
