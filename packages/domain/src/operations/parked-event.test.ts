/** Administrators' decisions about parked events: SkipParkedEvent, RetryParkedEvent. */
import { describe, it } from 'vitest';
import type { OperationsEvent, ReadModelsReplayed } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { parkedEventDecider, type ParkedEventCommand, type OperationsState } from './decider';

const { given } = deciderSpec<ParkedEventCommand, OperationsEvent, OperationsState>(parkedEventDecider);
const now = '2025-04-12T10:00:00.000Z';
const admin = testContext({ now, actor: { ...adminActor, userId: 'b7d1f6c4-3f51-4a4c-9d51-2f0f5c6c0a01' } });
const system = testContext({ now, actor: systemActor });
const user = testContext({ now, actor: participantActor(3, 7) });
const ref = { projection: 'team-directory', position: 42, eventId: '6f1c2a4e-1111-4222-8333-944455556666', eventType: 'ParticipantRegistered' };
const replayed: ReadModelsReplayed = {
  type: 'ReadModelsReplayed',
  data: {
    jobId: null, events: 10, position: 10, startedAt: now, finishedAt: now,
    before: { teams: 0, participants: 0, distance: 0, blueFlowers: 0 }, after: { teams: 0, participants: 0, distance: 0, blueFlowers: 0 },
  },
};

describe('SkipParkedEvent', () => {
  it('records ProjectionEventSkipped with the trimmed reason at ctx.now, whatever the stream holds', () => {
    given([replayed]).when({ type: 'SkipParkedEvent', data: { ...ref, reason: '  vigane nimi  ' } }, admin)
      .then([{ type: 'ProjectionEventSkipped', data: { ...ref, reason: 'vigane nimi', skippedAt: now } }]);
  });

  it('may name every projection that parked it (projection null), and the system may decide too', () => {
    given([]).when({ type: 'SkipParkedEvent', data: { ...ref, projection: null, reason: '' } }, system)
      .then([{ type: 'ProjectionEventSkipped', data: { ...ref, projection: null, reason: '', skippedAt: now } }]);
  });

  it('is for administrators only', () => {
    given([]).when({ type: 'SkipParkedEvent', data: { ...ref, reason: '' } }, user).then('FORBIDDEN');
  });

  it('refuses a malformed position or projection (INVALID_REQUEST) and a reason over 500 characters (VALUE_TOO_LONG)', () => {
    given([]).when({ type: 'SkipParkedEvent', data: { ...ref, position: 0, reason: '' } }, admin).then('INVALID_REQUEST');
    given([]).when({ type: 'SkipParkedEvent', data: { ...ref, projection: 'Team Directory', reason: '' } }, admin).then('INVALID_REQUEST');
    given([]).when({ type: 'SkipParkedEvent', data: { ...ref, reason: 'x'.repeat(501) } }, admin).then('VALUE_TOO_LONG');
  });
});

describe('RetryParkedEvent', () => {
  it('records ProjectionEventRetryRequested at ctx.now', () => {
    given([]).when({ type: 'RetryParkedEvent', data: ref }, admin)
      .then([{ type: 'ProjectionEventRetryRequested', data: { ...ref, requestedAt: now } }]);
  });

  it('is for administrators only', () => {
    given([]).when({ type: 'RetryParkedEvent', data: ref }, user).then('FORBIDDEN');
  });
});
