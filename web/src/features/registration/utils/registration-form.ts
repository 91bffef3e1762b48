/**
 * The registration wizard's data and checks (spec §2 "Registration", §3 payload, §5): three
 * steps, each checked before the next one opens, with the server's rules (all fields required,
 * password at least 6 characters and equal to its confirmation, lengths: email 264, full name 32,
 * join code 64, team name 50 in 2025: the site edition's `limits`, read from the query cache).
 */
import type { Edition } from '@sinilill/domain';
import type { RegistrationBody, RegistrationType, SpecLanguage } from '@sinilill/contracts';
import {
  checkConfirmation,
  checkEmail,
  checkNewPassword,
  checkText,
  type FieldProblem,
  type FieldProblems,
  formLimits,
  REQUIRED,
} from '../../../lib/form-validation';

/** The step ids of the wizard, spelled as in the original (`team-infromation` sic). */
export const STEPS = ['user-information', 'register-type', 'team-infromation'] as const;
export type StepId = (typeof STEPS)[number];

export const GENDERS = ['MALE', 'FEMALE', 'UNDEFINED'] as const;
export type GenderValue = (typeof GENDERS)[number];

/** What the visitor has typed so far; selects hold '' until chosen. */
export interface RegistrationDraft {
  email: string;
  full_name: string;
  password: string;
  password_confirmation: string;
  birth_year: string;
  gender: GenderValue | '';
  type: RegistrationType | '';
  team_join_code: string;
  team_name: string;
  newsletter: boolean;
  /**
   * REGISTER_TEAM only: a company team (spec §9 "company team 15 EUR per person").
   * Absent means false.
   */
  company?: boolean;
}

export type DraftField = Exclude<keyof RegistrationDraft, 'newsletter' | 'company'>;

export const EMPTY_DRAFT: RegistrationDraft = {
  email: '',
  full_name: '',
  password: '',
  password_confirmation: '',
  birth_year: '',
  gender: '',
  type: '',
  team_join_code: '',
  team_name: '',
  newsletter: false,
  company: false,
};

/** Birth years offered by an edition's limits (spec §3: 1901 to 2023 in 2025, 123 values), newest first. */
export function birthYears(limits: Pick<Edition['limits'], 'birthYearMin' | 'birthYearMax'>): number[] {
  return Array.from({ length: Math.max(0, limits.birthYearMax - limits.birthYearMin + 1) }, (_, index) => limits.birthYearMax - index);
}

/** The fields of each step, in the order they appear (the first problem gets the focus). */
export function stepFields(step: StepId, type: RegistrationDraft['type']): readonly DraftField[] {
  switch (step) {
    case 'user-information':
      return ['email', 'full_name', 'password', 'password_confirmation', 'birth_year', 'gender'];
    case 'register-type':
      return ['type'];
    case 'team-infromation':
      return type === 'REGISTER_TEAM' ? ['team_name'] : ['team_join_code'];
  }
}

function checkBirthYear(value: string): FieldProblem | undefined {
  const year = Number(value);
  if (value === '' || !Number.isInteger(year)) return REQUIRED;
  const limits = formLimits();
  if (limits === null) return undefined;
  return year >= limits.birthYearMin && year <= limits.birthYearMax ? undefined : { kind: 'code', code: 'INVALID_REQUEST' };
}

/** The problems of one step's fields (empty when the step may be left forwards). */
export function checkStep(step: StepId, draft: RegistrationDraft): FieldProblems<DraftField> {
  const problems: FieldProblems<DraftField> = {};
  const limits = formLimits();
  switch (step) {
    case 'user-information':
      problems.email = checkEmail(draft.email);
      problems.full_name = checkText(draft.full_name, { max: limits?.fullNameMax });
      problems.password = checkNewPassword(draft.password);
      problems.password_confirmation = checkConfirmation(draft.password, draft.password_confirmation, 'PASSWORDS_DONT_MATCH');
      problems.birth_year = checkBirthYear(draft.birth_year);
      problems.gender = (GENDERS as readonly string[]).includes(draft.gender) ? undefined : REQUIRED;
      break;
    case 'register-type':
      problems.type = draft.type === 'JOIN_TEAM' || draft.type === 'REGISTER_TEAM' ? undefined : REQUIRED;
      break;
    case 'team-infromation':
      if (draft.type === 'REGISTER_TEAM') problems.team_name = checkText(draft.team_name, { max: limits?.teamNameMax });
      else problems.team_join_code = checkText(draft.team_join_code, { max: limits?.joinCodeMax });
      break;
  }
  for (const key of Object.keys(problems) as DraftField[]) if (problems[key] === undefined) delete problems[key];
  return problems;
}

/**
 * Only the too-long problems of a step: shown while typing, before any attempt to go on, so that
 * a text over its limit is flagged at once rather than cut.
 */
export function lengthProblems(step: StepId, draft: RegistrationDraft): FieldProblems<DraftField> {
  const all = checkStep(step, draft);
  const problems: FieldProblems<DraftField> = {};
  for (const [field, problem] of Object.entries(all) as [DraftField, FieldProblem][]) {
    if (problem.kind === 'tooLong') problems[field] = problem;
  }
  return problems;
}

/**
 * The payload of POST /api/registerteam or /api/jointeam (spec §3) from a draft whose steps all
 * passed their checks: texts trimmed (the password as typed), only the chosen type's team field;
 * `company: true` only for a new company team (the server refuses it on JOIN_TEAM).
 */
export function toRegistrationBody(draft: RegistrationDraft, lang: SpecLanguage): RegistrationBody {
  if (draft.type === '' || draft.gender === '') throw new Error('toRegistrationBody: the draft has not passed its checks');
  const body: RegistrationBody = {
    full_name: draft.full_name.trim(),
    email: draft.email.trim(),
    gender: draft.gender,
    birth_year: Number(draft.birth_year),
    password: draft.password,
    newsletter: draft.newsletter,
    type: draft.type,
    lang,
  };
  if (draft.type === 'REGISTER_TEAM') {
    body.team_name = draft.team_name.trim();
    if (draft.company === true) body.company = true;
  } else {
    body.team_join_code = draft.team_join_code.trim();
  }
  return body;
}
