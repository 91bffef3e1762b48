/**
 * What a wake-up job names: originsOf reads the job's correlation id and trace
 * context, and the coalesced ones, from data that came through Redis — a job of an older sender
 * names one empty origin (its run is traced from a new root), anything malformed is dropped.
 */
import { describe, expect, test } from 'vitest';
import { MAX_WAKE_UP_ORIGINS, type WakeUpJob } from '@sinilill/messaging';
import { originsOf } from './projector';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('originsOf', () => {
  test('a job of an older sender names one empty origin', () => {
    expect(originsOf({ position: 7, sentAt: 1 })).toEqual([{}]);
  });

  test('the job\'s own origin first, then the coalesced ones', () => {
    const job: WakeUpJob = {
      position: 9, sentAt: 1, correlationId: 'first-0001', trace: { traceparent: TRACEPARENT },
      coalesced: [{ correlationId: 'second-0002' }, { trace: { traceparent: TRACEPARENT, tracestate: 'k=v' } }],
    };
    expect(originsOf(job)).toEqual([
      { correlationId: 'first-0001', trace: { traceparent: TRACEPARENT } },
      { correlationId: 'second-0002' },
      { trace: { traceparent: TRACEPARENT, tracestate: 'k=v' } },
    ]);
  });

  test('malformed fields are dropped, long ids cut, and at most MAX_WAKE_UP_ORIGINS are read', () => {
    const damaged = {
      position: 1, sentAt: 1, correlationId: 42, trace: 'not a carrier',
      coalesced: [null, { correlationId: 'x'.repeat(500), trace: { traceparent: 7 } }, ...Array.from({ length: 40 }, () => ({ correlationId: 'many-0001' }))],
    } as unknown as WakeUpJob;
    const origins = originsOf(damaged);
    expect(origins).toHaveLength(MAX_WAKE_UP_ORIGINS);
    expect(origins[0]).toEqual({});
    expect(origins[1]).toEqual({});
    expect(origins[2]).toEqual({ correlationId: 'x'.repeat(100) });
    expect(originsOf(undefined)).toEqual([{}]);
  });
});
