import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintKey, fingerprintOf, KeyedMutex, requestFingerprint } from './idempotency';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 0, y: 1 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1,{"y":1,"z":0}]},"b":1}');
  });

  it('follows JSON.stringify for what JSON has no form for', () => {
    expect(canonicalJson({ a: undefined, b: null, c: () => 1 })).toBe('{"b":null}');
    expect(canonicalJson([undefined, Number.NaN, Infinity])).toBe('[null,null,null]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ at: new Date('2025-04-20T10:00:00Z') })).toBe('{"at":"2025-04-20T10:00:00.000Z"}');
    expect(canonicalJson('õ"\n')).toBe(JSON.stringify('õ"\n'));
  });

  it('refuses bigints and cycles', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    // A shared (not cyclic) object is fine.
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('requestFingerprint', () => {
  const body = { distance: 5, entry_type: 'WALK', performed_at: '2025-04-19' };

  it('is SHA-256 hex, the same for the same route and input in any key order', () => {
    const fingerprint = requestFingerprint('POST /api/entry', { params: {}, body });
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint('POST /api/entry', { body: { performed_at: '2025-04-19', entry_type: 'WALK', distance: 5 }, params: {} })).toBe(fingerprint);
  });

  it('differs for another body, path parameter or route', () => {
    const edit = requestFingerprint('PUT /api/entry/:id/edit', { params: { id: '7' }, body });
    expect(requestFingerprint('PUT /api/entry/:id/edit', { params: { id: '7' }, body: { ...body, distance: 6 } })).not.toBe(edit);
    expect(requestFingerprint('PUT /api/entry/:id/edit', { params: { id: '8' }, body })).not.toBe(edit);
    expect(requestFingerprint('POST /api/entry', { params: { id: '7' }, body })).not.toBe(edit);
  });

  it('keyed (the command API): HMAC-SHA256, another value than the plain hash and than under another key', () => {
    const plain = requestFingerprint('PUT /api/account/changepassword', { params: {}, body });
    const keyed = requestFingerprint('PUT /api/account/changepassword', { params: {}, body }, fingerprintKey('secret one'));
    expect(keyed).toMatch(/^[0-9a-f]{64}$/);
    expect(keyed).not.toBe(plain);
    expect(requestFingerprint('PUT /api/account/changepassword', { params: {}, body }, fingerprintKey('secret one'))).toBe(keyed);
    expect(requestFingerprint('PUT /api/account/changepassword', { params: {}, body }, fingerprintKey('secret two'))).not.toBe(keyed);
    // The key is derived, never the secret itself.
    expect(fingerprintKey('secret one').toString('utf8')).not.toContain('secret one');
  });

  it('is read back from event metadata', () => {
    expect(fingerprintOf({ commandId: 'x', requestFingerprint: 'abc' })).toBe('abc');
    expect(fingerprintOf({ commandId: 'x' })).toBeUndefined();
  });
});

describe('KeyedMutex', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('runs tasks with one key one after another, in arrival order, and others freely', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([mutex.run('a', task('a1')), mutex.run('a', task('a2')), mutex.run('b', task('b1')), mutex.run('a', task('a3'))]);
    expect(results).toEqual(['a1', 'a2', 'b1', 'a3']);
    const a = log.filter((line) => line.startsWith('a'));
    expect(a).toEqual(['a1 start', 'a1 end', 'a2 start', 'a2 end', 'a3 start', 'a3 end']);
    // b did not wait for the a's.
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(mutex.size).toBe(0);
  });

  it('releases the key when a task fails', async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run('k', async () => {
      await tick();
      throw new Error('refused');
    });
    const next = mutex.run('k', async () => 'ran');
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe('ran');
    expect(mutex.size).toBe(0);
  });
});
