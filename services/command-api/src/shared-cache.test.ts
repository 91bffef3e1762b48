import { describe, expect, test } from 'vitest';
import { localSharedCache, onceWithKeptAnswer } from './shared-cache';

describe('onceWithKeptAnswer: a keyed request whose effects leave no event runs once per key', () => {
  test('given a first run under a key, when the same request comes again, then it is answered the first answer and does not run', async () => {
    const cache = localSharedCache();
    let runs = 0;
    const run = async () => ({ invited: ++runs });
    const metadata = { commandId: 'user-1:key-0001', requestFingerprint: 'abc' };
    expect(await onceWithKeptAnswer(cache, metadata, run)).toEqual({ invited: 1 });
    expect(await onceWithKeptAnswer(cache, metadata, run)).toEqual({ invited: 1 });
    expect(runs).toBe(1);
  });

  test('given a first run under a key, when another request uses the key, then IDEMPOTENCY_KEY_REUSED and it does not run', async () => {
    const cache = localSharedCache();
    let runs = 0;
    const run = async () => ({ invited: ++runs });
    await onceWithKeptAnswer(cache, { commandId: 'user-1:key-0002', requestFingerprint: 'abc' }, run);
    await expect(onceWithKeptAnswer(cache, { commandId: 'user-1:key-0002', requestFingerprint: 'other' }, run)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(runs).toBe(1);
  });

  test('without a key every request runs; a refused run keeps nothing', async () => {
    const cache = localSharedCache();
    let runs = 0;
    const run = async () => ({ invited: ++runs });
    await onceWithKeptAnswer(cache, { commandId: 'fresh-1' }, run);
    await onceWithKeptAnswer(cache, { commandId: 'fresh-1' }, run);
    expect(runs).toBe(2);
    const keyed = { commandId: 'user-1:key-0003', requestFingerprint: 'abc' };
    await expect(onceWithKeptAnswer(cache, keyed, async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(await onceWithKeptAnswer(cache, keyed, run)).toEqual({ invited: 3 });
  });

  test('the local cache forgets an answer after its time to live', async () => {
    const cache = localSharedCache();
    await cache.set('k', 'v', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await cache.get('k')).toBeNull();
  });
});
