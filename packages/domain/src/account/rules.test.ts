import { describe, expect, it } from 'vitest';
import { edition2025 } from '../edition/seed';
import { DomainError } from '../errors';
import { adminActor, systemActor, visitorActor } from '../testing';
import type { SettingsChanged } from '../events';
import { deciderSpec, testContext } from '../testing';
import {
  assertRegistrationOpen,
  assertValidNewPassword,
  emailComparisonForm,
  joinCodeComparisonForm,
  teamNameComparisonForm,
  teamOfJoinCode,
  type JoinCodeFacts,
} from './rules';
import { settingsDecider } from './settings';

const codeOf = (error: unknown) => (error instanceof DomainError ? error.code : String(error));
const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return codeOf(error);
  }
  return 'no error';
};

describe('assertValidNewPassword (spec §5: at least 6)', () => {
  it.each([
    ['12345', 'PASSWORD_TOO_SHORT'],
    ['', 'PASSWORD_TOO_SHORT'],
    ['      ', 'no error'], // spaces count; passwords are never trimmed
    ['123456', 'no error'],
    ['x'.repeat(128), 'no error'],
    ['x'.repeat(129), 'VALUE_TOO_LONG'],
  ])('%j → %s', (password, code) => {
    expect(thrown(() => assertValidNewPassword(password, edition2025))).toBe(code);
  });
  it('refuses a non-string with INVALID_REQUEST', () => {
    expect(thrown(() => assertValidNewPassword(123456, edition2025))).toBe('INVALID_REQUEST');
  });
});

describe('comparison forms', () => {
  it('compares e-mails trimmed, lower-cased and NFKC-folded', () => {
    expect(emailComparisonForm(' Mari@Example.EE ')).toBe('mari@example.ee');
    expect(emailComparisonForm('ｍａｒｉ@example.ee')).toBe('mari@example.ee'); // full-width letters
  });

  it.each(['Tartu Tammed', '  tartu   TAMMED ', 'TARTU\tTAMMED', 'Ｔａｒｔｕ Ｔａｍｍｅｄ', 'tartu\u00a0tammed'])(
    'treats %j as the team name "tartu tammed"',
    (name) => {
      expect(teamNameComparisonForm(name)).toBe('tartu tammed');
    },
  );

  it('keeps different names different, Estonian letters included', () => {
    expect(teamNameComparisonForm('Õnne Tiim')).not.toBe(teamNameComparisonForm('Onne Tiim'));
    expect(teamNameComparisonForm('Õnne Tiim')).toBe(teamNameComparisonForm('õnne tiim'));
  });

  it('compares join codes trimmed and upper-cased', () => {
    expect(joinCodeComparisonForm(' dsnqk43s ')).toBe('DSNQK43S');
  });
});

describe('teamOfJoinCode', () => {
  const during = '2025-04-10T09:00:00Z';
  const live: JoinCodeFacts = { record: { teamId: 7, revoked: false, expiresAt: null }, teamJoinCode: 'DSNQK43S' };

  it('admits to the team of a live code, typed in any case', () => {
    expect(teamOfJoinCode('dsnqk43s', live, during, edition2025)).toBe(7);
  });

  it('answers INVALID_JOIN_CODE for a blank or unknown code, or a missing team', () => {
    expect(thrown(() => teamOfJoinCode('  ', live, during, edition2025))).toBe('INVALID_JOIN_CODE');
    expect(thrown(() => teamOfJoinCode('NOPE', { record: null, teamJoinCode: null }, during, edition2025))).toBe('INVALID_JOIN_CODE');
    expect(thrown(() => teamOfJoinCode('DSNQK43S', { ...live, teamJoinCode: null }, during, edition2025))).toBe('INVALID_JOIN_CODE');
  });

  it('answers INVALID_JOIN_CODE for a replaced or revoked code (spec §4)', () => {
    expect(thrown(() => teamOfJoinCode('DSNQK43S', { ...live, teamJoinCode: 'NEWCODE1' }, during, edition2025))).toBe('INVALID_JOIN_CODE');
    expect(thrown(() => teamOfJoinCode('DSNQK43S', { ...live, record: { teamId: 7, revoked: true, expiresAt: null } }, during, edition2025))).toBe('INVALID_JOIN_CODE');
  });

  it('answers JOIN_CODE_EXPIRED past the code’s own expiry', () => {
    const expiring = { ...live, record: { teamId: 7, revoked: false, expiresAt: '2025-04-10T09:00:00Z' } };
    expect(teamOfJoinCode('DSNQK43S', expiring, '2025-04-10T08:59:59Z', edition2025)).toBe(7);
    expect(thrown(() => teamOfJoinCode('DSNQK43S', expiring, during, edition2025))).toBe('JOIN_CODE_EXPIRED');
  });

  it('answers JOIN_CODE_EXPIRED once the edition is over (after 3 May, Tallinn)', () => {
    expect(teamOfJoinCode('DSNQK43S', live, '2025-05-03T20:59:59Z', edition2025)).toBe(7);
    expect(thrown(() => teamOfJoinCode('DSNQK43S', live, '2025-05-03T21:00:00Z', edition2025))).toBe('JOIN_CODE_EXPIRED');
  });
});

describe('assertRegistrationOpen', () => {
  it('refuses visitors while off, never administrators or the system', () => {
    expect(thrown(() => assertRegistrationOpen(false, visitorActor))).toBe('REGISTRATION_DISABLED');
    expect(thrown(() => assertRegistrationOpen(true, visitorActor))).toBe('no error');
    expect(thrown(() => assertRegistrationOpen(false, adminActor))).toBe('no error');
    expect(thrown(() => assertRegistrationOpen(false, systemActor))).toBe('no error');
  });
});

describe('the settings decider', () => {
  const { given } = deciderSpec(settingsDecider);
  const now = '2025-04-10T09:00:00.000Z';
  const admin = testContext({ now, actor: adminActor });
  const changed = (data: Omit<SettingsChanged['data'], 'changedAt'>): SettingsChanged => ({ type: 'SettingsChanged', data: { ...data, changedAt: now } });

  it('starts with everything on', () => {
    given([]).when({ type: 'ChangeSettings', data: {} }, admin).thenState({ registrationEnabled: true, entryInsertionEnabled: true });
  });

  it('records only the switches that change', () => {
    given([]).when({ type: 'ChangeSettings', data: { registrationEnabled: false, entryInsertionEnabled: true } }, admin).then([changed({ registrationEnabled: false })]);
    given([changed({ registrationEnabled: false })]).when({ type: 'ChangeSettings', data: { registrationEnabled: false } }, admin).then([]);
    given([changed({ registrationEnabled: false })])
      .when({ type: 'ChangeSettings', data: { entryInsertionEnabled: false } }, admin)
      .thenState({ registrationEnabled: false, entryInsertionEnabled: false });
  });

  it('is for administrators and the system only', () => {
    given([]).when({ type: 'ChangeSettings', data: { registrationEnabled: false } }, testContext({ now })).then('FORBIDDEN');
    given([]).when({ type: 'ChangeSettings', data: { registrationEnabled: false } }, testContext({ now, actor: systemActor })).then([changed({ registrationEnabled: false })]);
  });

  it('refuses unknown switches and non-booleans', () => {
    given([]).when({ type: 'ChangeSettings', data: { registrationEnabled: 'no' as unknown as boolean } }, admin).then('INVALID_REQUEST');
    given([]).when({ type: 'ChangeSettings', data: { paymentsEnabled: true } as never }, admin).then('INVALID_REQUEST');
  });
});
