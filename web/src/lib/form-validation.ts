/**
 * Client-side field checks that mirror the server's (spec §5): required fields, maximum lengths
 * counted in characters as the server counts them (code points, after trimming), the password
 * minimum. A check answers a FieldProblem or undefined. The limits are the site edition's
 * (./site-edition.ts); a limit not known yet is not checked here (the server checks it).
 */
import { textLength, type Edition } from '@sinilill/domain';
import type { DecimalProblem } from './parse-decimal';
import { passwordMin, siteLimits } from './site-edition';

export { passwordMin };

/** What is wrong with a field: a form-level reason, or a catalogue code of spec §8. */
export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'tooLong'; max: number }
  | { kind: 'code'; code: string }
  /** A number field's text that parseDecimal refused: the message says what to type instead. */
  | { kind: 'decimal'; problem: Exclude<DecimalProblem, 'empty'>; maxDecimals: number };

export type FieldProblems<Field extends string> = Partial<Record<Field, FieldProblem>>;

export const REQUIRED: FieldProblem = { kind: 'required' };

/**
 * The site edition's limits as properties read when used, for forms written against the former
 * constant `limits`: undefined while the editions are not read (checkText then checks no
 * length), except the password minimum, which falls back to the account rule (passwordMin).
 */
export const limits: { readonly [K in keyof Edition['limits']]: K extends 'passwordMin' ? number : number | undefined } = {
  get emailMax() { return siteLimits()?.emailMax; },
  get fullNameMax() { return siteLimits()?.fullNameMax; },
  get joinCodeMax() { return siteLimits()?.joinCodeMax; },
  get teamNameMax() { return siteLimits()?.teamNameMax; },
  get descriptionMax() { return siteLimits()?.descriptionMax; },
  get passwordMin() { return passwordMin(); },
  get imageMaxBytes() { return siteLimits()?.imageMaxBytes; },
  get birthYearMin() { return siteLimits()?.birthYearMin; },
  get birthYearMax() { return siteLimits()?.birthYearMax; },
};

/** The site edition's limits (spec §5), null until GET /api/editions has answered. */
export function formLimits(): Edition['limits'] | null {
  return siteLimits();
}

/** A required (or optional) text of at most `max` characters after trimming (`max` undefined: any length). */
export function checkText(value: string, options: { max: number | undefined; required?: boolean }): FieldProblem | undefined {
  const text = value.trim();
  if (options.required !== false && text === '') return REQUIRED;
  if (options.max !== undefined && textLength(text) > options.max) return { kind: 'tooLong', max: options.max };
  return undefined;
}

/** A deliberately lenient shape check (something@something.tld); the server has the last word. */
export function checkEmail(value: string): FieldProblem | undefined {
  const problem = checkText(value, { max: siteLimits()?.emailMax });
  if (problem) return problem;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? undefined : { kind: 'code', code: 'INVALID_EMAIL' };
}

/** A new password: required, at least the minimum length (PASSWORD_TOO_SHORT), not trimmed. */
export function checkNewPassword(value: string): FieldProblem | undefined {
  if (value === '') return REQUIRED;
  if (textLength(value) < passwordMin()) return { kind: 'code', code: 'PASSWORD_TOO_SHORT' };
  return undefined;
}

/** The confirmation of a password: required, and equal to it (else `mismatchCode`). */
export function checkConfirmation(password: string, confirmation: string, mismatchCode: string): FieldProblem | undefined {
  if (confirmation === '') return REQUIRED;
  return password === confirmation ? undefined : { kind: 'code', code: mismatchCode };
}

/** The fields with a problem, in the order given (the first one gets the focus). */
export function problemFields<Field extends string>(order: readonly Field[], problems: FieldProblems<Field>): Field[] {
  return order.filter((field) => problems[field] !== undefined);
}
