/**
 * Parking's pure parts: the bisection that finds the event a batch fails on, which
 * failures park an event, and what a park records of an error.
 */
import { describe, expect, it } from 'vitest';
import { recordedEvent } from './testing';
import { applyOrPark, describeFailure, fold, FoldError, isDeterministicFailure, parkDecisionFor } from './parking';

/** A PostgreSQL error as pg raises it (DatabaseError: code = SQLSTATE, severity). */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/**
 * A store of applied events with all-or-nothing attempts, like the runner's savepoints: an
 * attempt that holds a poisoned event (or fails for another reason) applies nothing.
 */
function fakeSteps(poisoned: ReadonlySet<number>, error: (n: number) => unknown = () => pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')) {
  const applied: number[] = [];
  const parked: { n: number; error: unknown }[] = [];
  const attempts: number[][] = [];
  return {
    applied, parked, attempts,
    steps: {
      async attempt(events: readonly number[]) {
        attempts.push([...events]);
        const bad = events.find((n) => poisoned.has(n));
        if (bad !== undefined) throw error(bad);
        applied.push(...events);
      },
      async park(n: number, e: unknown) {
        parked.push({ n, error: e });
      },
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('applyOrPark (bisection)', () => {
  it('given a batch where event k fails: the events before k are applied, k is parked, the events after k are applied, in order', async () => {
    for (const size of [1, 2, 3, 7, 100, 2000]) {
      for (const k of new Set([1, 2, Math.ceil(size / 2), size - 1, size].filter((k) => k >= 1 && k <= size))) {
        const fake = fakeSteps(new Set([k]));
        const result = await applyOrPark(range(size), fake.steps);
        const others = range(size).filter((n) => n !== k);
        expect(fake.applied).toEqual(others);
        expect(result.applied).toEqual(others);
        expect(result.parked).toEqual([k]);
        expect(fake.parked.map((p) => p.n)).toEqual([k]);
        // Events before k were applied before k was parked, the ones after it after: order kept.
        expect(fake.applied.indexOf(k + 1) === -1 || fake.applied.indexOf(k - 1) < fake.applied.indexOf(k + 1)).toBe(true);
      }
    }
  });

  it('costs about 2·log2(n) extra attempts for one failing event in 2000', async () => {
    const fake = fakeSteps(new Set([1234]));
    await applyOrPark(range(2000), fake.steps);
    expect(fake.attempts.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(2000)) + 1);
  });

  it('parks every failing event of a batch, applies all the others exactly once', async () => {
    const fake = fakeSteps(new Set([3, 4, 50, 99]));
    const result = await applyOrPark(range(100), fake.steps);
    expect(result.parked).toEqual([3, 4, 50, 99]);
    expect(fake.applied).toEqual(range(100).filter((n) => ![3, 4, 50, 99].includes(n)));
    expect(new Set(fake.applied).size).toBe(fake.applied.length);
  });

  it('applies a batch that works in one attempt and parks nothing', async () => {
    const fake = fakeSteps(new Set());
    expect(await applyOrPark(range(10), fake.steps)).toEqual({ applied: range(10), parked: [] });
    expect(fake.attempts).toEqual([range(10)]);
  });

  it('a failure that is not deterministic (a lost connection, a serialization failure) parks nothing and is thrown', async () => {
    for (const error of [new Error('Connection terminated unexpectedly'), pgError('40001', 'could not serialize access'), pgError('08006', 'connection failure')]) {
      const fake = fakeSteps(new Set([5]), () => error);
      await expect(applyOrPark(range(10), fake.steps)).rejects.toBe(error);
      expect(fake.parked).toEqual([]);
    }
  });

  it('a non-deterministic failure met while bisecting is thrown too (the caller rolls the whole batch back)', async () => {
    let calls = 0;
    const fake = fakeSteps(new Set([8]), () => (++calls === 1 ? pgError('22021', 'nul') : pgError('57P01', 'terminating connection')));
    await expect(applyOrPark(range(10), fake.steps)).rejects.toMatchObject({ code: '57P01' });
    expect(fake.parked).toEqual([]);
  });
});

describe('isDeterministicFailure', () => {
  it('is true for SQLSTATE classes 22 and 23 and for errors of a projection’s fold', () => {
    expect(isDeterministicFailure(pgError('22021', 'invalid byte sequence'))).toBe(true);
    expect(isDeterministicFailure(pgError('22P05', 'unsupported Unicode escape sequence'))).toBe(true);
    expect(isDeterministicFailure(pgError('23505', 'duplicate key'))).toBe(true);
    expect(isDeterministicFailure(pgError('23514', 'check constraint'))).toBe(true);
    expect(isDeterministicFailure(new FoldError(new TypeError('x is undefined')))).toBe(true);
  });

  it('is false for connection loss, serialization failures, deadlocks, SQL bugs and plain errors', () => {
    expect(isDeterministicFailure(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isDeterministicFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isDeterministicFailure(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(false);
    expect(isDeterministicFailure(pgError('40001', 'serialization failure'))).toBe(false);
    expect(isDeterministicFailure(pgError('40P01', 'deadlock detected'))).toBe(false);
    expect(isDeterministicFailure(pgError('42703', 'column does not exist'))).toBe(false);
    expect(isDeterministicFailure(pgError('57P01', 'terminating connection due to administrator command'))).toBe(false);
    expect(isDeterministicFailure(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isDeterministicFailure('22021')).toBe(false);
  });
});

describe('fold', () => {
  it('returns what the fold returns, and wraps what it throws in a FoldError', () => {
    expect(fold(() => 42)).toBe(42);
    const cause = new RangeError('bad distance');
    expect(() => fold(() => { throw cause; })).toThrow(FoldError);
    try {
      fold(() => { throw cause; });
    } catch (error) {
      expect((error as FoldError).cause).toBe(cause);
      expect((error as FoldError).message).toBe('bad distance');
    }
  });
});

describe('describeFailure', () => {
  it('keeps the SQLSTATE and the message, with quoted values cut out', () => {
    expect(describeFailure(pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')))
      .toEqual({ code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0x00' });
    expect(describeFailure(pgError('22P02', 'invalid input syntax for type integer: "Mari Maasikas"')))
      .toEqual({ code: '22P02', message: 'invalid input syntax for type integer: "…"' });
    expect(describeFailure(pgError('23514', 'new row for relation "team_stats" violates check constraint "no_blocked"')).message)
      .toBe('new row for relation "team_stats" violates check constraint "no_blocked"');
  });

  it('names a fold’s error FOLD, replaces control characters and keeps at most 300 characters', () => {
    expect(describeFailure(new FoldError(new Error('bad\u0000name')))).toEqual({ code: 'FOLD', message: 'bad\uFFFDname' });
    expect(describeFailure(new FoldError(new Error('x'.repeat(1000)))).message).toHaveLength(300);
    expect(describeFailure('odd').code).toBe('ERROR');
  });
});

describe('parkDecisionFor', () => {
  const skip = recordedEvent('ProjectionEventSkipped', { projection: 'team-directory', position: 12, eventId: 'e', eventType: 'T', reason: 'vigane', skippedAt: '' });
  const retryAll = recordedEvent('ProjectionEventRetryRequested', { projection: null, position: 7, eventId: 'e', eventType: 'T', requestedAt: '' });

  it('reads a decision addressed to the projection, or to every projection', () => {
    expect(parkDecisionFor(skip, 'team-directory')).toEqual({ kind: 'skip', position: 12, reason: 'vigane' });
    expect(parkDecisionFor(retryAll, 'admin-directory')).toEqual({ kind: 'retry', position: 7, reason: '' });
  });

  it('ignores decisions for other projections and every other event', () => {
    expect(parkDecisionFor(skip, 'admin-directory')).toBeNull();
    expect(parkDecisionFor(recordedEvent('SettingsChanged', { changedAt: '' }), 'settings')).toBeNull();
  });
});
