/** The draw procedure: deterministic, fixed vectors, the same as scripts/verify-draw.mjs documents. */
import { describe, expect, it } from 'vitest';
import { drawWinners, eligibleListHash, sha256Hex } from './draw';

const ids = [3, 5, 8, 13, 21, 34, 55, 89, 144, 233];

describe('the draw procedure sinilill-draw-v1', () => {
  it('gives fixed winners for a fixed seed and list (a vector verify-draw.mjs must repeat)', () => {
    expect(drawWinners('a'.repeat(64), ids, 3)).toEqual([21, 34, 55]);
    expect(drawWinners('b'.repeat(64), ids, 3)).toEqual([89, 5, 21]);
  });
  it('is deterministic, draws each id at most once and stops when the list runs out', () => {
    expect(drawWinners('seed-0123456789abcdef', ids, 10)).toEqual(drawWinners('seed-0123456789abcdef', ids, 10));
    expect([...drawWinners('seed-0123456789abcdef', ids, 10)].sort((a, b) => a - b)).toEqual(ids);
    expect(drawWinners('seed-0123456789abcdef', [7], 5)).toEqual([7]);
    expect(drawWinners('seed-0123456789abcdef', [], 5)).toEqual([]);
  });
  it('hashes the list as decimal ids joined by newlines, and the seed as UTF-8', () => {
    expect(eligibleListHash(ids)).toBe('e4f97746b2354734c8eb82f597166117534d322d68159025fe1bfe3671a6f37d');
    expect(sha256Hex('a'.repeat(64))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
  });
});
