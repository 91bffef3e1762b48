import { describe, expect, it } from 'vitest';
import { ANONYMOUS, decodeStored, storedFromToken } from './session';
import { fakeJwt } from './test-jwt';

const claims = {
  userId: '7f9c',
  fullName: 'Mari Maasikas',
  is_approved: true,
  participantId: 12,
  teamId: 3,
  role: 'ADMIN',
  isPaid: true,
  exp: 2_000_000_000,
};

describe('session token', () => {
  it('is stored as "Bearer <token>"', () => {
    expect(storedFromToken('abc.def.ghi')).toBe('Bearer abc.def.ghi');
  });

  it('decodes the identity of spec §3 from the stored value', () => {
    const decoded = decodeStored(storedFromToken(fakeJwt(claims)));
    expect(decoded?.identity).toEqual({
      userId: '7f9c',
      fullName: 'Mari Maasikas',
      is_approved: true,
      participantId: 12,
      teamId: 3,
      role: 'ADMIN',
      isPaid: true,
      isAdmin: true,
    });
    expect(decoded?.expiresAt).toBe(2_000_000_000_000);
  });

  it('gives missing or mistyped claims their defaults', () => {
    const decoded = decodeStored(storedFromToken(fakeJwt({ userId: 'u', role: 'ROOT', isPaid: 'yes', teamId: '3' })));
    expect(decoded?.identity).toEqual({ ...ANONYMOUS, userId: 'u' });
    expect(decoded?.expiresAt).toBeNull();
  });

  it('refuses what is not a JWT', () => {
    expect(decodeStored('Bearer ')).toBeNull();
    expect(decodeStored('Bearer not-a-token')).toBeNull();
    expect(decodeStored('')).toBeNull();
  });
});
