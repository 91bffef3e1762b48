/**
 * Small input checks shared by the deciders. Commands usually arrive already shaped by the
 * request schemas (packages/contracts), but the domain re-checks what its rules depend on, so an
 * import or a direct call cannot slip past them.
 */
import { DomainError } from './errors';
import type { ErrorCode } from './errors';

/**
 * Length of a text in characters as a person counts them (Unicode code points, so an emoji counts
 * once), used for every "max N" limit of spec §5 and §9.
 */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** @throws DomainError('INVALID_REQUEST') unless `value` is a positive safe integer (an id). */
export function requireId(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new DomainError('INVALID_REQUEST', `${field} must be a positive integer`);
  }
  return value;
}

/** @throws DomainError('INVALID_REQUEST') unless `value` is a boolean. */
export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new DomainError('INVALID_REQUEST', `${field} must be a boolean`);
  return value;
}

/**
 * A text field: must be a string; trimmed; non-empty when `required` (else `emptyCode`); at most
 * `max` characters after trimming (else VALUE_TOO_LONG). Returns the trimmed text.
 */
export function requireText(
  value: unknown,
  field: string,
  options: { max: number; required: boolean; emptyCode?: ErrorCode; typeCode?: ErrorCode },
): string {
  if (typeof value !== 'string') throw new DomainError(options.typeCode ?? 'INVALID_REQUEST', `${field} must be a string`);
  const text = value.trim();
  if (options.required && text.length === 0) throw new DomainError(options.emptyCode ?? 'INVALID_REQUEST', `${field} is required`);
  if (textLength(text) > options.max) throw new DomainError('VALUE_TOO_LONG', `${field} is longer than ${options.max} characters`);
  return text;
}
