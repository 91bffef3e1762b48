import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type pg from 'pg';
import {
  PersonalDataVault,
  erasedValue,
  isSealedValue,
  openValue,
  parseSealedValue,
  revealPersonalData,
  sealValue,
  subjectOf,
  withPersonalDataProtection,
} from './personal-data';
import type { EventStore, RecordedEvent } from './types';

const key = randomBytes(32);

describe('sealed values', () => {
  test('given a value, when sealed and opened with the same key, then it comes back unchanged', () => {
    const value = { name: 'Mari Maasikas', phones: ['+372 5555 5555'], adult: true };
    const sealed = sealValue(key, 'participant-12', value);
    expect(sealed).toMatch(/^pii:v1:participant-12:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('Maasikas');
    expect(openValue(key, sealed)).toEqual(value);
  });

  test('the same value sealed twice differs (random IV per value)', () => {
    expect(sealValue(key, 's', 'x')).not.toBe(sealValue(key, 's', 'x'));
    expect(parseSealedValue(sealValue(key, 's', 'x')).parts?.iv).toHaveLength(12);
  });

  test('a tampered ciphertext, a moved subject or a wrong key is rejected', () => {
    const sealed = sealValue(key, 'participant-12', 'Mari');
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[4]!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openValue(key, [...parts.slice(0, 4), flipped.toString('base64'), parts[5]].join(':'))).toThrow();
    expect(() => openValue(key, sealed.replace('participant-12', 'participant-13'))).toThrow();
    expect(() => openValue(randomBytes(32), sealed)).toThrow();
  });

  test('subjects with colons survive; the erased marker opens to null', () => {
    const sealed = sealValue(key, 'user:a:b', 1);
    expect(parseSealedValue(sealed).subject).toBe('user:a:b');
    expect(openValue(key, sealed)).toBe(1);
    expect(parseSealedValue(erasedValue('user:a:b'))).toEqual({ subject: 'user:a:b', parts: null });
    expect(openValue(key, erasedValue('p-1'))).toBeNull();
  });

  test('isSealedValue recognises only pii:v1 strings; malformed ones do not parse', () => {
    expect(isSealedValue(sealValue(key, 's', 1))).toBe(true);
    expect(isSealedValue('Mari')).toBe(false);
    expect(isSealedValue(12)).toBe(false);
    expect(() => parseSealedValue('pii:v1:s:only-two')).toThrow();
  });
});

describe('subjectOf', () => {
  test('the subject field without its Id suffix, kebab-cased, dash, the id', () => {
    expect(subjectOf({ participantId: 12 }, { subject: 'participantId', fields: [] })).toBe('participant-12');
    expect(subjectOf({ teamCaptainId: 'u7' }, { subject: 'teamCaptainId', fields: [] })).toBe('team-captain-u7');
    expect(subjectOf({ email: 'a@b' }, { subject: 'email', fields: [] })).toBe('email-a@b');
    expect(subjectOf({ participantId: 3 }, { subject: 'participantId', fields: [], subjectPrefix: 'person' })).toBe('person-3');
  });

  test('a missing subject is an error', () => {
    expect(() => subjectOf({}, { subject: 'participantId', fields: [] })).toThrow(TypeError);
    expect(() => subjectOf({ participantId: null }, { subject: 'participantId', fields: [] })).toThrow(TypeError);
  });
});

describe('revealPersonalData', () => {
  // A vault over a stand-in pool that knows one live key: enough to decrypt without a database.
  const pool = {
    query: async () => ({ rows: [{ subject: 'participant-7', key }] }),
  } as unknown as pg.Pool;
  const policy = { ParticipantRegistered: { subject: 'participantId', fields: ['fullName'] } };
  const inner = {} as EventStore;
  const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
    id: '00000000-0000-4000-8000-000000000001', type, schemaVersion: 1, data,
    metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: 'c', causationId: null },
    stream: 'participant-7', revision: 0, globalPosition: 1, recordedAt: new Date(0),
  });

  test('given events read around the store, when revealed through it, then personal fields are plaintext and erased ones null', async () => {
    const store = withPersonalDataProtection(inner, new PersonalDataVault({ pool }), policy);
    const sealed = recorded('ParticipantRegistered', { participantId: 7, fullName: sealValue(key, 'participant-7', 'Mari') });
    const erased = recorded('ParticipantRegistered', { participantId: 7, fullName: erasedValue('participant-7') });
    const other = recorded('EntryAdded', { entryId: 1, distance: 5 });
    const [plain, gone, same] = await revealPersonalData(store, [sealed, erased, other]);
    expect(plain?.data).toEqual({ participantId: 7, fullName: 'Mari' });
    expect(gone?.data).toEqual({ participantId: 7, fullName: null });
    expect(same).toBe(other);
    expect(isSealedValue((sealed.data as { fullName: unknown }).fullName)).toBe(true);
  });

  test('a store without protection is refused rather than passing sealed values on', () => {
    expect(() => revealPersonalData(inner, [])).toThrow(TypeError);
  });
});
