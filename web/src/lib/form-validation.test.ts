import { edition2025 } from '@sinilill/domain/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConfirmation, checkEmail, checkNewPassword, checkText, problemFields } from './form-validation';
import { cacheEditions, clearEditions } from './test-editions';

describe('form checks before the editions are read', () => {
  it('leaves the lengths to the server and takes the account rule for the password', () => {
    clearEditions();
    expect(checkEmail(`${'a'.repeat(300)}@test.ee`)).toBeUndefined();
    expect(checkText('a'.repeat(1000), { max: undefined })).toBeUndefined();
    expect(checkNewPassword('12345')).toEqual({ kind: 'code', code: 'PASSWORD_TOO_SHORT' });
    expect(checkNewPassword('123456')).toBeUndefined();
  });
});

describe('form checks (spec §5)', () => {
  beforeAll(() => cacheEditions(edition2025));
  afterAll(clearEditions);

  it('requires text and counts characters, not UTF-16 units, after trimming', () => {
    expect(checkText('   ', { max: 32 })).toEqual({ kind: 'required' });
    expect(checkText('', { max: 32, required: false })).toBeUndefined();
    expect(checkText(`  ${'a'.repeat(32)}  `, { max: 32 })).toBeUndefined();
    expect(checkText('a'.repeat(33), { max: 32 })).toEqual({ kind: 'tooLong', max: 32 });
    expect(checkText('🌼'.repeat(32), { max: 32 })).toBeUndefined();
  });

  it('checks the email shape and its 264-character limit', () => {
    expect(checkEmail('')).toEqual({ kind: 'required' });
    expect(checkEmail('mari@example.ee')).toBeUndefined();
    expect(checkEmail('mari@example')).toEqual({ kind: 'code', code: 'INVALID_EMAIL' });
    expect(checkEmail(`${'a'.repeat(257)}@test.ee`)).toEqual({ kind: 'tooLong', max: 264 });
  });

  it('wants passwords of at least 6 characters', () => {
    expect(checkNewPassword('')).toEqual({ kind: 'required' });
    expect(checkNewPassword('12345')).toEqual({ kind: 'code', code: 'PASSWORD_TOO_SHORT' });
    expect(checkNewPassword('123456')).toBeUndefined();
  });

  it('compares the confirmation with the password', () => {
    expect(checkConfirmation('secret1', '', 'PASSWORDS_DONT_MATCH')).toEqual({ kind: 'required' });
    expect(checkConfirmation('secret1', 'secret2', 'PASSWORDS_DONT_MATCH')).toEqual({ kind: 'code', code: 'PASSWORDS_DONT_MATCH' });
    expect(checkConfirmation('secret1', 'secret1', 'NEW_PASSWORDS_DONT_MATCH')).toBeUndefined();
  });

  it('lists the fields with problems in form order', () => {
    expect(problemFields(['a', 'b', 'c'] as const, { c: { kind: 'required' }, a: { kind: 'required' } })).toEqual(['a', 'c']);
  });
});
