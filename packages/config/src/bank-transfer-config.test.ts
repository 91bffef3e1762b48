/**
 * The manual bank transfer's configuration: BANK_ACCOUNT_NAME,
 * BANK_ACCOUNT_IBAN and BANK_TRANSFER_DESCRIPTION, made-up and flagged when unset, warned about in
 * production rather than refused.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_BANK_TRANSFER, bankTransferConfig, configWarnings } from './index';

describe('bankTransferConfig', () => {
  it('unset: the made-up development details, flagged as an example (an IBAN with the impossible check digits 00)', () => {
    expect(bankTransferConfig({})).toEqual(DEVELOPMENT_BANK_TRANSFER);
    expect(DEVELOPMENT_BANK_TRANSFER).toMatchObject({ example: true, iban: 'EE00 0000 0000 0000 0000' });
  });

  it('set: the configured details, no example', () => {
    expect(bankTransferConfig({
      BANK_ACCOUNT_NAME: ' MTÜ Sinilill ', BANK_ACCOUNT_IBAN: 'EE38 2200 2210 2014 5685', BANK_TRANSFER_DESCRIPTION: 'Osalustasu {year} {participantId}/{teamId}',
    })).toEqual({ accountName: 'MTÜ Sinilill', iban: 'EE38 2200 2210 2014 5685', descriptionTemplate: 'Osalustasu {year} {participantId}/{teamId}', example: false });
    // Only one of the two: still an example.
    expect(bankTransferConfig({ BANK_ACCOUNT_NAME: 'MTÜ Sinilill' }).example).toBe(true);
  });

  it('refuses a description without {participantId}, with another placeholder or over 140 characters, and a malformed IBAN', () => {
    for (const [variable, value] of [
      ['BANK_TRANSFER_DESCRIPTION', 'Sinilill {year}'],
      ['BANK_TRANSFER_DESCRIPTION', 'Sinilill {name} {participantId}'],
      ['BANK_TRANSFER_DESCRIPTION', `${'x'.repeat(130)} {participantId}`],
      ['BANK_ACCOUNT_IBAN', 'EE38-2200'],
    ] as const) {
      const attempt = () => bankTransferConfig({ [variable]: value });
      expect(attempt, `${variable}=${value}`).toThrow(ConfigError);
      expect(attempt).toThrow(new RegExp(`^${variable} must be`));
    }
  });

  it('warns in production while the details are the example, and only then', () => {
    expect(configWarnings({ nodeEnv: 'production' }, DEVELOPMENT_BANK_TRANSFER)).toHaveLength(1);
    expect(configWarnings({ nodeEnv: 'development' }, DEVELOPMENT_BANK_TRANSFER)).toEqual([]);
    expect(configWarnings({ nodeEnv: 'production' }, { ...DEVELOPMENT_BANK_TRANSFER, example: false })).toEqual([]);
  });
});
