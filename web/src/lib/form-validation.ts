/**
 * Client-side field checks that mirror the server's (spec §5): required fields, maximum lengths
 * counted in characters as the server counts them (code points, after trimming), the password
 * minimum. A check answers a FieldProblem or undefined.
 */
import { currentEdition, textLength } from '@sinilill/domain';
import type { DecimalProblem } from './parse-decimal';

/** What is wrong with a field: a form-level reason, or a catalogue code of spec §8. */
export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'tooLong'; max: number }
  | { kind: 'code'; code: string }
  /** A number field's text that parseDecimal refused: the message says what to type instead. */
  | { kind: 'decimal'; problem: Exclude<DecimalProblem, 'empty'>; maxDecimals: number };

export type FieldProblems<Field extends string> = Partial<Record<Field, FieldProblem>>;

export const REQUIRED: FieldProblem = { kind: 'required' };

export const { limits } = currentEdition;

/** A required (or optional) text of at most `max` characters after trimming. */
export function checkText(value: string, options: { max: number; required?: boolean }): FieldProblem | undefined {
  const text = value.trim();
  if (options.required !== false && text === '') return REQUIRED;
  if (textLength(text) > options.max) return { kind: 'tooLong', max: options.max };
  return undefined;
}

/** A deliberately lenient shape check (something@something.tld); the server has the last word. */
export function checkEmail(value: string): FieldProblem | undefined {
  const problem = checkText(value, { max: limits.emailMax });
  if (problem) return problem;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? undefined : { kind: 'code', code: 'INVALID_EMAIL' };
}

/** A new password: required, at least the minimum length (PASSWORD_TOO_SHORT), not trimmed. */
export function checkNewPassword(value: string): FieldProblem | undefined {
  if (value === '') return REQUIRED;
  if (textLength(value) < limits.passwordMin) return { kind: 'code', code: 'PASSWORD_TOO_SHORT' };
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
