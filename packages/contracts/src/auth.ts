/**
 * Accounts and sessions (spec §2 Registration, Login, Account, Password reset, Confirmation;
 * §3 registration payload, session identity; §5 validation; §7 calls). Lengths follow spec §5
 * and §9: email 264, full name 32, join code 64, team name 50, password at least 6 (at most 128,
 * a product limit so that hashing stays cheap). Strings over a limit are refused, never cut.
 */
import Type from 'typebox';
import { SpecLanguageSchema } from './language';
import { SingleLine } from './text';

/** Gender by name, as the web client sends it and the events store it. */
export const GenderName = Type.Union([Type.Literal('MALE'), Type.Literal('FEMALE'), Type.Literal('UNDEFINED')]);
export type GenderName = Type.Static<typeof GenderName>;

/**
 * Gender in a request: by name or in the spec's numeric form (spec §3 "Gender MALE 0, FEMALE 1,
 * UNDEFINED 2"). `genderName` turns either into the name the domain uses.
 */
export const Gender = Type.Union([GenderName, Type.Literal(0), Type.Literal(1), Type.Literal(2)]);
export type Gender = Type.Static<typeof Gender>;

/** The spec's numeric genders (spec §3), by value. */
export const GENDER_BY_NUMBER: Readonly<Record<0 | 1 | 2, GenderName>> = { 0: 'MALE', 1: 'FEMALE', 2: 'UNDEFINED' };

/** A request's gender (a name, or 0/1/2 as spec §3 numbers them) as its name. */
export function genderName(gender: Gender): GenderName {
  return typeof gender === 'number' ? GENDER_BY_NUMBER[gender] : gender;
}


export const RegistrationType = Type.Union([Type.Literal('JOIN_TEAM'), Type.Literal('REGISTER_TEAM')]);
export type RegistrationType = Type.Static<typeof RegistrationType>;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** POST /api/registerteam and POST /api/jointeam (spec §3 "Registration payload"). */
export const RegistrationBody = Type.Object(
  {
    /** Required for JOIN_TEAM; empty or absent for REGISTER_TEAM. */
    team_join_code: Type.Optional(SingleLine({ maxLength: 64 })),
    full_name: SingleLine({ minLength: 1, maxLength: 32 }),
    email: SingleLine({ minLength: 3, maxLength: 264 }),
    gender: Gender,
    birth_year: Type.Integer({ minimum: 1901, maximum: 2023 }),
    password: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }),
    newsletter: Type.Boolean(),
    type: RegistrationType,
    /** Required for REGISTER_TEAM; empty or absent for JOIN_TEAM. */
    team_name: Type.Optional(SingleLine({ maxLength: 50 })),
    lang: SpecLanguageSchema,
    /**
     * REGISTER_TEAM only: a company team (spec §9 "company team 15 EUR per person"),
     * whose members pay the company fee whatever their birth year and whose captain may pay for
     * them all. Default false; true on JOIN_TEAM → INVALID_REQUEST (a member joins the team as it is).
     */
    company: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type RegistrationBody = Type.Static<typeof RegistrationBody>;

export const SuccessAnswer = Type.Object({
  success: Type.Boolean(),
  /** Global position of the command's last event (read-your-writes), when it appended any. */
  position: Type.Optional(Type.Integer()),
});
export type SuccessAnswer = Type.Static<typeof SuccessAnswer>;

/** POST /api/login */
export const LoginBody = Type.Object(
  { email: SingleLine({ minLength: 1, maxLength: 264 }), password: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }) },
  { additionalProperties: false },
);
export type LoginBody = Type.Static<typeof LoginBody>;

/** The login answer: a JWT whose claims are SessionClaims (session.ts). */
export const LoginAnswer = Type.Object({ token: Type.String() });
export type LoginAnswer = Type.Static<typeof LoginAnswer>;

/** POST /api/requestpasswordreset (also used to re-send nothing else: always the same answer shape). */
/**
 * POST /api/requestpasswordreset, spec §7 "email, lang": `lang` as spec §3's `est`/`eng` or as
 * `et`/`en` (loose.ts; mailLanguageOf gives spec §3's).
 */
export const RequestPasswordResetBody = Type.Object(
  {
    email: SingleLine({ minLength: 1, maxLength: 264 }),
    lang: Type.Union([SpecLanguageSchema, Type.Literal('et'), Type.Literal('en')], { description: 'the mail\'s language: est or eng (spec §3), or et or en' }),
  },
  { additionalProperties: false },
);

/** Spec §3's language of a RequestPasswordResetBody `lang` reading (`et` → `est`, `en` → `eng`). */
export function mailLanguageOf(lang: RequestPasswordResetBody['lang']): 'est' | 'eng' {
  return lang === 'et' ? 'est' : lang === 'en' ? 'eng' : lang;
}
export type RequestPasswordResetBody = Type.Static<typeof RequestPasswordResetBody>;

/** POST /api/resetpassword (the link /passwordreset/{token}/{id} carries token and userId). */
export const ResetPasswordBody = Type.Object(
  {
    userId: SingleLine({ minLength: 1, maxLength: 64 }),
    token: SingleLine({ minLength: 1, maxLength: 256 }),
    newPassword: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Type.Static<typeof ResetPasswordBody>;

/**
 * POST /api/confirmaccount (the link /confirm/account/{token}/{id}), spec §7 "token, id": the
 * user's id as `id` or as `userId` (loose.ts; the name /resetpassword gives it), not both.
 */
export const ConfirmAccountBody = Type.Union([
  Type.Object(
    { token: SingleLine({ minLength: 1, maxLength: 256 }), id: SingleLine({ minLength: 1, maxLength: 64 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { token: SingleLine({ minLength: 1, maxLength: 256 }), userId: SingleLine({ minLength: 1, maxLength: 64 }) },
    { additionalProperties: false },
  ),
], { description: 'Spec §7 "token, id": the user\'s id as `id` or `userId`.' });
export type ConfirmAccountBody = Type.Static<typeof ConfirmAccountBody>;

/** PUT /api/account/changepassword (authenticated). */
export const ChangePasswordBody = Type.Object(
  {
    currentPassword: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }),
    newPassword: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Type.Static<typeof ChangePasswordBody>;

/** GET /api/settings (query API): the global switches (spec §4). */
export const SettingsAnswer = Type.Object({
  registrationEnabled: Type.Boolean(),
  entryInsertionEnabled: Type.Boolean(),
  /**
   * True while participants may add, edit and delete entries: the switch is on and today (the
   * server's clock, Europe/Tallinn) is not past the late-entry deadline (spec §4: 3 May).
   */
  entriesOpen: Type.Boolean(),
});
export type SettingsAnswer = Type.Static<typeof SettingsAnswer>;

/**
 * POST /api/passwordstrength (not in spec §7; added so that the forms refuse a weak password where
 * it is typed): would the server take `password` as a new password of this person? `strong` is the
 * server's PASSWORD_TOO_WEAK rule (zxcvbn score ≥ 2, judged with the e-mail, name and team name
 * given); the length rules (PASSWORD_TOO_SHORT) are the client's own check. Rate-limited per
 * address; the password is neither stored nor logged.
 */
export const PasswordStrengthBody = Type.Object(
  {
    password: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }),
    email: Type.Optional(SingleLine({ maxLength: 264 })),
    full_name: Type.Optional(SingleLine({ maxLength: 32 })),
    team_name: Type.Optional(SingleLine({ maxLength: 50 })),
  },
  { additionalProperties: false },
);
export type PasswordStrengthBody = Type.Static<typeof PasswordStrengthBody>;

/** The answer of POST /api/passwordstrength. */
export const PasswordStrengthAnswer = Type.Object({ strong: Type.Boolean() });
export type PasswordStrengthAnswer = Type.Static<typeof PasswordStrengthAnswer>;
