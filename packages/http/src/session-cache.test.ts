/**
 * SessionCache without a database: what it keeps and when it asks. The authority is a plain
 * object answering standings (the real ones are tested in tests/int/session-changes.int.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { SessionCache } from './session-cache';
import type { SessionAuthority, SessionStanding } from './session-authority';

const LIVE: SessionStanding = { version: 1, ended: false, familyLive: true };
const USER = '00000000-0000-4000-8000-000000000001';

/** An authority answering `standing`, counting its calls; `hold` keeps the next answer until released. */
function authority(standing: SessionStanding | null) {
  const state = { standing, calls: 0, release: () => undefined as void, held: false };
  const source: SessionAuthority = {
    async session() {
      state.calls += 1;
      if (state.held) await new Promise<void>((resolve) => { state.release = resolve; });
      return state.standing;
    },
    account: async () => ({ exists: true, deleted: false, role: 'USER', approved: true }),
  };
  return { state, source };
}

/** A cache whose LISTEN "connected" on a database with the triggers. */
async function listening(source: SessionAuthority, options = {}): Promise<SessionCache> {
  const cache = new SessionCache(source, options);
  await cache.hooks.prepare({ query: async () => ({ rows: [{ present: true }] }) });
  cache.hooks.connected();
  return cache;
}

describe('SessionCache', () => {
  test('given no LISTEN, every check asks the authority', async () => {
    const { state, source } = authority(LIVE);
    const cache = new SessionCache(source);
    await cache.session(USER, 'a');
    await cache.session(USER, 'a');
    expect(state.calls).toBe(2);
  });

  test('given a database without the triggers, nothing is kept', async () => {
    const { state, source } = authority(LIVE);
    let warned = 0;
    const cache = new SessionCache(source, { onUnnotified: () => { warned += 1; } });
    await cache.hooks.prepare({ query: async () => ({ rows: [{ present: false }] }) });
    cache.hooks.connected();
    expect(cache.listening).toBe(false);
    await cache.session(USER, 'a');
    await cache.session(USER, 'a');
    expect([state.calls, warned]).toEqual([2, 1]);
  });

  test('given a LISTEN, a live session is kept until its account\'s notification, a refusal never', async () => {
    const { state, source } = authority(LIVE);
    const cache = await listening(source);
    expect(await cache.session(USER, 'a')).toEqual(LIVE);
    expect(await cache.session(USER, 'a')).toEqual(LIVE);
    expect(state.calls).toBe(1);
    cache.hooks.notification('someone-else');
    await cache.session(USER, 'a');
    expect(state.calls).toBe(1);
    state.standing = { ...LIVE, familyLive: false };
    cache.hooks.notification(USER);
    expect(await cache.session(USER, 'a')).toEqual({ ...LIVE, familyLive: false });
    expect(await cache.session(USER, 'a')).toEqual({ ...LIVE, familyLive: false });
    expect(state.calls).toBe(3);
  });

  test('a standing read while a notification arrived is not kept', async () => {
    const { state, source } = authority(LIVE);
    const cache = await listening(source);
    state.held = true;
    const reading = cache.session(USER, 'a');
    cache.hooks.notification(USER);
    state.release();
    await reading;
    state.held = false;
    await cache.session(USER, 'a');
    expect(state.calls).toBe(2);
  });

  test('a lost LISTEN drops everything kept and keeps nothing until it is up again', async () => {
    const { state, source } = authority(LIVE);
    const cache = await listening(source);
    await cache.session(USER, 'a');
    cache.hooks.lost();
    await cache.session(USER, 'a');
    await cache.session(USER, 'a');
    expect(state.calls).toBe(3);
  });

  test('a kept session is asked again after maxAgeMs', async () => {
    let now = 0;
    const { state, source } = authority(LIVE);
    const cache = await listening(source, { now: () => now, maxAgeMs: 1000 });
    await cache.session(USER, 'a');
    now = 999;
    await cache.session(USER, 'a');
    now = 1000;
    await cache.session(USER, 'a');
    expect(state.calls).toBe(2);
  });

  test('a writer\'s wait ends at once without a LISTEN, and when every listener acknowledged', async () => {
    const { source } = authority(LIVE);
    // Not listening: nothing is kept here, so nothing to wait for (a wait would hang this test).
    await new SessionCache(source, { maxWaitMs: 60_000 }).heard([USER], 0);
    const sent: unknown[][] = [];
    const cache = new SessionCache(source, { maxWaitMs: 60_000 });
    await cache.hooks.prepare({
      query: async (text: string, values?: unknown[]) => {
        if (text.includes('pg_trigger')) return { rows: [{ present: true }] };
        if (text.includes('pg_stat_activity')) return { rows: [{ n: 2 }] };
        sent.push(values ?? []);
        return { rows: [] };
      },
    });
    cache.hooks.connected();
    const mark = cache.mark();
    let done = false;
    const waiting = cache.heard([USER], mark).then(() => { done = true; });
    cache.hooks.notification(USER);
    expect(sent).toEqual([[`ack:${USER}`]]);
    cache.hooks.notification(`ack:${USER}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    cache.hooks.notification(`ack:${USER}`);
    await waiting;
    expect(done).toBe(true);
  });
});
