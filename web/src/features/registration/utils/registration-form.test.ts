import { edition2025 } from '@sinilill/domain/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEditions, clearEditions } from '../../../lib/test-editions';
import { birthYears, checkStep, EMPTY_DRAFT, lengthProblems, type RegistrationDraft, STEPS, stepFields, toRegistrationBody } from './registration-form';

const filled: RegistrationDraft = {
  email: ' mari@example.ee ',
  full_name: ' Mari Maasikas ',
  password: 'salajane',
  password_confirmation: 'salajane',
  birth_year: '1985',
  gender: 'FEMALE',
  type: 'JOIN_TEAM',
  team_join_code: ' ABC123 ',
  team_name: 'ignored',
  newsletter: true,
};

describe('registration wizard', () => {
  // The checks take the site edition's limits from the query cache (2025's here).
  beforeAll(() => cacheEditions(edition2025));
  afterAll(clearEditions);

  it('has the three steps of spec §2, spelled as in the original', () => {
    expect(STEPS).toEqual(['user-information', 'register-type', 'team-infromation']);
  });

  it('offers the 123 birth years 2023 to 1901 of the 2025 edition, newest first', () => {
    const years = birthYears(edition2025.limits);
    expect(years).toHaveLength(123);
    expect(years[0]).toBe(2023);
    expect(years.at(-1)).toBe(1901);
    expect(birthYears({ birthYearMin: 1910, birthYearMax: 2024 })[0]).toBe(2024);
  });

  it('takes the limits of the edition in the cache', () => {
    const long = { ...filled, full_name: 'a'.repeat(33) };
    expect(lengthProblems('user-information', long)).toEqual({ full_name: { kind: 'tooLong', max: 32 } });
    cacheEditions({ ...edition2025, limits: { ...edition2025.limits, fullNameMax: 40 } });
    try {
      expect(lengthProblems('user-information', long)).toEqual({});
    } finally {
      cacheEditions(edition2025);
    }
  });

  it('requires every field of every step', () => {
    expect(Object.keys(checkStep('user-information', EMPTY_DRAFT))).toEqual([...stepFields('user-information', '')]);
    expect(checkStep('register-type', EMPTY_DRAFT)).toEqual({ type: { kind: 'required' } });
    expect(checkStep('team-infromation', { ...EMPTY_DRAFT, type: 'JOIN_TEAM' })).toEqual({ team_join_code: { kind: 'required' } });
    expect(checkStep('team-infromation', { ...EMPTY_DRAFT, type: 'REGISTER_TEAM' })).toEqual({ team_name: { kind: 'required' } });
  });

  it('passes a filled draft', () => {
    for (const step of STEPS) expect(checkStep(step, filled)).toEqual({});
  });

  it('wants a password of at least 6 characters, equal to its confirmation', () => {
    expect(checkStep('user-information', { ...filled, password: 'lühike', password_confirmation: 'lühike' })).toEqual({});
    expect(checkStep('user-information', { ...filled, password: 'short', password_confirmation: 'short' })).toEqual({
      password: { kind: 'code', code: 'PASSWORD_TOO_SHORT' },
    });
    expect(checkStep('user-information', { ...filled, password_confirmation: 'salajanE' })).toEqual({
      password_confirmation: { kind: 'code', code: 'PASSWORDS_DONT_MATCH' },
    });
  });

  it('refuses texts over the limits of spec §5 instead of cutting them', () => {
    const long = { ...filled, email: `${'a'.repeat(257)}@mail.ee`, full_name: 'a'.repeat(33), team_join_code: 'c'.repeat(65) };
    expect(lengthProblems('user-information', long)).toEqual({ email: { kind: 'tooLong', max: 264 }, full_name: { kind: 'tooLong', max: 32 } });
    expect(lengthProblems('team-infromation', long)).toEqual({ team_join_code: { kind: 'tooLong', max: 64 } });
    expect(lengthProblems('team-infromation', { ...filled, type: 'REGISTER_TEAM', team_name: 't'.repeat(51) })).toEqual({
      team_name: { kind: 'tooLong', max: 50 },
    });
    expect(checkStep('team-infromation', { ...filled, type: 'REGISTER_TEAM', team_name: 't'.repeat(50) })).toEqual({});
  });

  it('builds the payload of spec §3 with the chosen type only', () => {
    expect(toRegistrationBody(filled, 'est')).toEqual({
      email: 'mari@example.ee',
      full_name: 'Mari Maasikas',
      password: 'salajane',
      birth_year: 1985,
      gender: 'FEMALE',
      type: 'JOIN_TEAM',
      team_join_code: 'ABC123',
      newsletter: true,
      lang: 'est',
    });
    const team = toRegistrationBody({ ...filled, type: 'REGISTER_TEAM', team_name: ' Sinised ' }, 'eng');
    expect(team.team_name).toBe('Sinised');
    expect(team.team_join_code).toBeUndefined();
    expect(team.lang).toBe('eng');
  });
});
