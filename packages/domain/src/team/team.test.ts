import { describe, it } from 'vitest';
import type { TeamRegistered } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext, visitorActor } from '../testing';
import type { ChangeTeamPublicAttributes, RegisterTeam, ReplaceJoinCode } from './decider';
import { teamDecider } from './decider';

const { given } = deciderSpec(teamDecider);
const now = '2025-03-15T10:00:00.000Z';
const ctx = testContext({ now, actor: visitorActor });

const register = (overrides: Partial<RegisterTeam['data']> = {}): RegisterTeam => ({
  type: 'RegisterTeam',
  data: { teamId: 7, teamName: 'Sinilillede Seltskond', description: 'We walk.', joinCode: 'ABC123', icon: null, ...overrides },
});
const registered = (overrides: Partial<TeamRegistered['data']> = {}): TeamRegistered => ({
  type: 'TeamRegistered',
  data: { edition: 2025,
    teamId: 7,
    teamName: 'Sinilillede Seltskond',
    description: 'We walk.',
    joinCode: 'ABC123',
    icon: null,
    registeredAt: now,
    ...overrides,
  },
});

describe('RegisterTeam', () => {
  it('registers a new team at ctx.now', () => {
    given([]).when(register(), ctx).then([registered()]);
  });

  it('trims the name and description and keeps the icon', () => {
    given([])
      .when(register({ teamName: '  Sinilillede Seltskond ', description: ' We walk.\n', icon: 'https://x/icon.png' }), ctx)
      .then([registered({ icon: 'https://x/icon.png' })]);
  });

  it('allows an empty description and treats an empty icon as none', () => {
    given([])
      .when(register({ description: '', icon: '' }), testContext({ now, actor: systemActor }))
      .then([registered({ description: '' })]);
  });

  it('accepts a name of exactly 50 characters (spec §5), counting an emoji once', () => {
    const name = `${'a'.repeat(48)}🌸b`;
    given([]).when(register({ teamName: name }), ctx).then([registered({ teamName: name })]);
  });

  it('rejects a name of 51 characters with VALUE_TOO_LONG', () => {
    given([]).when(register({ teamName: 'a'.repeat(51) }), ctx).then('VALUE_TOO_LONG');
  });

  it.each(['', '   '])('rejects the blank name %j with INVALID_REQUEST', (teamName) => {
    given([]).when(register({ teamName }), ctx).then('INVALID_REQUEST');
  });

  it('accepts a description of 256 characters, rejects 257 with VALUE_TOO_LONG (spec §5)', () => {
    given([]).when(register({ description: 'd'.repeat(256) }), ctx).then([registered({ description: 'd'.repeat(256) })]);
    given([]).when(register({ description: 'd'.repeat(257) }), ctx).then('VALUE_TOO_LONG');
  });

  it('requires a join code (INVALID_REQUEST) of at most 64 characters (VALUE_TOO_LONG)', () => {
    given([]).when(register({ joinCode: ' ' }), ctx).then('INVALID_REQUEST');
    given([]).when(register({ joinCode: 'j'.repeat(64) }), ctx).then([registered({ joinCode: 'j'.repeat(64) })]);
    given([]).when(register({ joinCode: 'j'.repeat(65) }), ctx).then('VALUE_TOO_LONG');
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects the team id %s with INVALID_REQUEST', (teamId) => {
    given([]).when(register({ teamId }), ctx).then('INVALID_REQUEST');
  });

  it('rejects a non-string icon with INVALID_REQUEST', () => {
    given([]).when(register({ icon: 5 as unknown as string }), ctx).then('INVALID_REQUEST');
  });

  it('rejects a second registration with ALREADY_EXISTS', () => {
    given([registered()]).when(register(), ctx).then('ALREADY_EXISTS');
  });

  it('folds TeamRegistered into the state', () => {
    given([]).when(register(), ctx).thenState({ edition: 2025,
      exists: true,
      deleted: false,
      teamId: 7,
      teamName: 'Sinilillede Seltskond',
      description: 'We walk.',
      joinCode: 'ABC123',
      icon: null,
      registeredAt: now,
    });
  });
});

describe('ChangeTeamPublicAttributes', () => {
  const member = testContext({ now, actor: participantActor(3, 7) });
  const change = (data: Partial<ChangeTeamPublicAttributes['data']>): ChangeTeamPublicAttributes => ({
    type: 'ChangeTeamPublicAttributes', data: { teamId: 7, ...data },
  });

  it('records only the fields that differ, attributed by the caller’s metadata', () => {
    given([registered()])
      .when(change({ description: ' We run now. ', icon: '/api/images/abc.webp' }), member)
      .then([{ type: 'TeamPublicAttributesChanged', data: { teamId: 7, description: 'We run now.', icon: '/api/images/abc.webp', changedAt: now } }]);
    given([registered()])
      .when(change({ description: 'We walk.', icon: '/api/images/abc.webp' }), member)
      .then([{ type: 'TeamPublicAttributesChanged', data: { teamId: 7, icon: '/api/images/abc.webp', changedAt: now } }]);
  });

  it('appends nothing when nothing changes', () => {
    given([registered()]).when(change({ description: 'We walk.', icon: null }), member).then([]);
  });

  it('removes the icon with null', () => {
    given([registered({ icon: '/api/images/abc.webp' })])
      .when(change({ icon: null }), member)
      .then([{ type: 'TeamPublicAttributesChanged', data: { teamId: 7, icon: null, changedAt: now } }]);
  });

  it('lets an admin change any team, and refuses a member of another team with FORBIDDEN', () => {
    given([registered()]).when(change({ description: 'x' }), testContext({ now, actor: adminActor }))
      .then([{ type: 'TeamPublicAttributesChanged', data: { teamId: 7, description: 'x', changedAt: now } }]);
    given([registered()]).when(change({ description: 'x' }), testContext({ now, actor: participantActor(3, 8) })).then('FORBIDDEN');
    given([registered()]).when(change({ description: 'x' }), testContext({ now, actor: visitorActor })).then('FORBIDDEN');
  });

  it('keeps the 256-character limit (spec §5) and refuses an unknown team with NOT_FOUND', () => {
    given([registered()]).when(change({ description: 'd'.repeat(257) }), member).then('VALUE_TOO_LONG');
    given([]).when(change({ description: 'x' }), member).then('NOT_FOUND');
  });

  it('refuses an empty or over-long icon reference', () => {
    given([registered()]).when(change({ icon: '' }), member).then('INVALID_REQUEST');
    given([registered()]).when(change({ icon: 'x'.repeat(2049) }), member).then('INVALID_REQUEST');
  });
});

describe('ReplaceJoinCode', () => {
  const member = testContext({ now, actor: participantActor(3, 7) });
  const replace = (joinCode: string, teamId = 7): ReplaceJoinCode => ({ type: 'ReplaceJoinCode', data: { teamId, joinCode } });

  it('records the new code', () => {
    given([registered()]).when(replace('NEWCODE77'), member)
      .then([{ type: 'JoinCodeReplaced', data: { teamId: 7, joinCode: 'NEWCODE77', replacedAt: now } }]);
  });

  it('refuses the current code, a blank one, another team’s member and an unknown team', () => {
    given([registered()]).when(replace('ABC123'), member).then('INVALID_REQUEST');
    given([registered()]).when(replace('  '), member).then('INVALID_REQUEST');
    given([registered()]).when(replace('NEWCODE77'), testContext({ now, actor: participantActor(3, 8) })).then('FORBIDDEN');
    given([]).when(replace('NEWCODE77'), member).then('NOT_FOUND');
  });

  it('folds: after a replacement the state holds the new code', () => {
    given([registered(), { type: 'JoinCodeReplaced', data: { teamId: 7, joinCode: 'NEWCODE77', replacedAt: now } }])
      .when(replace('NEWCODE77'), member).then('INVALID_REQUEST');
  });
});
