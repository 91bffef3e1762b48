import { describe, expect, test } from 'vitest';
import { arrayLiteral } from './append-batcher';

describe('arrayLiteral', () => {
  test('quotes every element and joins them', () => {
    expect(arrayLiteral([])).toBe('{}');
    expect(arrayLiteral([0, 0, 1])).toBe('{"0","0","1"}');
    expect(arrayLiteral(['entry-1', 'no_stream', 'Rõõmsad Ilvesed, 7', 'NULL', '{x}', ''])).toBe('{"entry-1","no_stream","Rõõmsad Ilvesed, 7","NULL","{x}",""}');
  });

  test('escapes quotes and backslashes, wherever they are in the list', () => {
    expect(arrayLiteral(['a', 'say "hi"'])).toBe('{"a","say \\"hi\\""}');
    expect(arrayLiteral(['back\\slash', 'b'])).toBe('{"back\\\\slash","b"}');
  });
});
