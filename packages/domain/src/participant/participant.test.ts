import { describe, expect, it } from 'vitest';
import type { ParticipantPaymentMarked, ParticipantRegistered } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext, visitorActor } from '../testing';
import type { MarkPayment, RegisterParticipant } from './decider';
import { isPlausibleEmail, normalizeEmail, participantDecider } from './decider';

const { given } = deciderSpec(participantDecider);
const now = '2025-03-15T10:00:00.000Z';
const ctx = testContext({ now, actor: visitorActor });
const admin = testContext({ now, actor: adminActor });

const register = (overrides: Partial<RegisterParticipant['data']> = {}): RegisterParticipant => ({
  type: 'RegisterParticipant',
  data: {
    participantId: 3,
    teamId: 7,
    fullName: 'Mari Maasikas',
    email: 'mari@example.ee',
    birthYear: 1980,
    gender: 'FEMALE',
    isCaptain: true,
    newsletter: false,
    ...overrides,
  },
});
const registered = (overrides: Partial<ParticipantRegistered['data']> = {}): ParticipantRegistered => ({
  type: 'ParticipantRegistered',
  data: { edition: 2025,
    participantId: 3,
    teamId: 7,
    fullName: 'Mari Maasikas',
    email: 'mari@example.ee',
    birthYear: 1980,
    gender: 'FEMALE',
    isCaptain: true,
    newsletter: false,
    registeredAt: now,
    ...overrides,
  },
});
const mark = (isPaid: boolean): MarkPayment => ({ type: 'MarkPayment', data: { participantId: 3, isPaid } });
const marked = (isPaid: boolean): ParticipantPaymentMarked => ({ type: 'ParticipantPaymentMarked', data: { participantId: 3, isPaid } });

describe('RegisterParticipant', () => {
  it('registers a participant at ctx.now', () => {
    given([]).when(register(), ctx).then([registered()]);
  });

  it('trims the name and e-mail', () => {
    given([]).when(register({ fullName: ' Mari Maasikas ', email: ' mari@example.ee ' }), ctx).then([registered()]);
  });

  it.each(['MALE', 'FEMALE', 'UNDEFINED'] as const)('accepts the gender %s', (gender) => {
    given([]).when(register({ gender }), ctx).then([registered({ gender })]);
  });

  it('rejects another gender with INVALID_REQUEST', () => {
    given([]).when(register({ gender: 'OTHER' as 'MALE' }), ctx).then('INVALID_REQUEST');
  });

  it('requires a full name (INVALID_REQUEST) of at most 32 characters (VALUE_TOO_LONG)', () => {
    given([]).when(register({ fullName: '  ' }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ fullName: 'n'.repeat(32) }), ctx).then([registered({ fullName: 'n'.repeat(32) })]);
    given([]).when(register({ fullName: 'n'.repeat(33) }), ctx).then('VALUE_TOO_LONG');
  });

  it('requires an e-mail (INVALID_EMAIL) of at most 264 characters (VALUE_TOO_LONG)', () => {
    given([]).when(register({ email: '' }), ctx).then('INVALID_EMAIL');
    const longest = `${'a'.repeat(253)}@example.ee`; // 264
    given([]).when(register({ email: longest }), ctx).then([registered({ email: longest })]);
    given([]).when(register({ email: `a${longest}` }), ctx).then('VALUE_TOO_LONG');
  });

  it.each(['mari', 'mari@', '@example.ee', 'mari@example', 'mari maasikas@example.ee', 'mari@@example.ee', 'mari@example..ee'])(
    'rejects the e-mail %j with INVALID_EMAIL',
    (email) => {
      given([]).when(register({ email }), ctx).then('INVALID_EMAIL');
    },
  );

  it('accepts birth years 1901 and 2023, rejects 1900, 2024 and fractions with INVALID_REQUEST (spec §3)', () => {
    given([]).when(register({ birthYear: 1901 }), ctx).then([registered({ birthYear: 1901 })]);
    given([]).when(register({ birthYear: 2023 }), ctx).then([registered({ birthYear: 2023 })]);
    given([]).when(register({ birthYear: 1900 }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ birthYear: 2024 }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ birthYear: 1980.5 }), ctx).then('INVALID_REQUEST');
  });

  it('rejects bad ids and non-boolean flags with INVALID_REQUEST', () => {
    given([]).when(register({ participantId: 0 }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ teamId: -7 }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ isCaptain: 'yes' as unknown as boolean }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ newsletter: 1 as unknown as boolean }), ctx).then('INVALID_REQUEST');
  });

  it('rejects a second registration with ALREADY_EXISTS', () => {
    given([registered()]).when(register(), ctx).then('ALREADY_EXISTS');
  });

  it('starts unpaid', () => {
    given([]).when(register(), ctx).thenState({ edition: 2025,
      exists: true,
      deleted: false,
      participantId: 3,
      teamId: 7,
      fullName: 'Mari Maasikas',
      email: 'mari@example.ee',
      birthYear: 1980,
      gender: 'FEMALE',
      isCaptain: true,
      newsletter: false,
      isPaid: false,
      registeredAt: now,
    });
  });
});

describe('MarkPayment', () => {
  it('marks an unpaid participant paid, by an admin or the system', () => {
    given([registered()]).when(mark(true), admin).then([marked(true)]);
    given([registered()]).when(mark(true), testContext({ actor: systemActor })).then([marked(true)]);
  });

  it('marks a paid participant unpaid again', () => {
    given([registered(), marked(true)]).when(mark(false), admin).then([marked(false)]);
  });

  it('names its source and the fee order when told (a succeeded payment)', () => {
    const orderId = '3f2a9c1b-0d4e-4a5b-9c6d-7e8f9a0b1c2d';
    given([registered()]).when({ type: 'MarkPayment', data: { participantId: 3, isPaid: true, source: 'payment', orderId } }, testContext({ actor: systemActor }))
      .then([{ type: 'ParticipantPaymentMarked', data: { participantId: 3, isPaid: true, source: 'payment', orderId } }]);
  });

  it('decides nothing when the flag does not change', () => {
    given([registered()]).when(mark(false), admin).then([]);
    given([registered(), marked(true)]).when(mark(true), admin).then([]);
  });

  it('forbids participants, even the participant themself (FORBIDDEN)', () => {
    given([registered()]).when(mark(true), testContext({ actor: participantActor(3, 7) })).then('FORBIDDEN');
    given([registered()]).when(mark(true), ctx).then('FORBIDDEN');
  });

  it('answers NOT_FOUND for an unknown participant', () => {
    given([]).when(mark(true), admin).then('NOT_FOUND');
  });

  it('rejects a non-boolean flag with INVALID_REQUEST', () => {
    given([registered()]).when({ type: 'MarkPayment', data: { participantId: 3, isPaid: 'true' as unknown as boolean } }, admin).then('INVALID_REQUEST');
  });

  it('folds the flag into the state', () => {
    given([registered(), marked(true)]).when(mark(false), admin).thenState(expect.objectContaining({ isPaid: false }));
  });
});

describe('e-mail helpers', () => {
  it('normalizes for uniqueness look-ups', () => {
    expect(normalizeEmail(' Mari@Example.EE ')).toBe('mari@example.ee');
  });
  it('accepts plausible addresses', () => {
    expect(isPlausibleEmail('mari.maasikas+sinilill@post.example.ee')).toBe(true);
  });
});
