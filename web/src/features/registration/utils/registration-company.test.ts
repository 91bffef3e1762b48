import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, type RegistrationDraft, toRegistrationBody } from './registration-form';

const draft: RegistrationDraft = {
  ...EMPTY_DRAFT,
  email: 'juhan@firma.ee',
  full_name: 'Juhan Juht',
  password: 'salajane parool',
  password_confirmation: 'salajane parool',
  birth_year: '1979',
  gender: 'MALE',
  type: 'REGISTER_TEAM',
  team_name: ' Firma OÜ ',
};

describe('the company team checkbox (spec §9 company team 15 EUR per person)', () => {
  it('starts unticked and sends company: true only for a new company team', () => {
    expect(EMPTY_DRAFT.company).toBe(false);
    expect(toRegistrationBody({ ...draft, company: true }, 'est')).toMatchObject({ type: 'REGISTER_TEAM', team_name: 'Firma OÜ', company: true });
    expect(toRegistrationBody(draft, 'est')).not.toHaveProperty('company');
  });

  it('never sends it when joining a team (the server refuses it there)', () => {
    const join = toRegistrationBody({ ...draft, type: 'JOIN_TEAM', team_join_code: 'ABC123', company: true }, 'eng');
    expect(join).not.toHaveProperty('company');
    expect(join.team_join_code).toBe('ABC123');
  });
});
