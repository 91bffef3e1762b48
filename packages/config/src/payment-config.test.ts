import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index';

const dataDir = () => mkdtempSync(join(tmpdir(), 'sinilill-config-'));

describe('payment configuration (PAYMENT_PROVIDER and its keys)', () => {
  it('has no provider unless one is chosen: the sandbox never runs by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).payments).toEqual({ provider: null, sandboxSecret: '', montonio: null });
    expect(existsSync(join(dir, 'sandbox-payment-secret'))).toBe(false);
  });

  it('runs the sandbox when chosen, with a secret generated into DATA_DIR and kept there', () => {
    const dir = dataDir();
    const { payments } = loadConfig({ DATA_DIR: dir, PAYMENT_PROVIDER: 'sandbox' });
    expect(payments.provider).toBe('sandbox');
    expect(payments.montonio).toBeNull();
    expect(payments.sandboxSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'sandbox-payment-secret'), 'utf8').trim()).toBe(payments.sandboxSecret);
    expect(loadConfig({ DATA_DIR: dir, PAYMENT_PROVIDER: 'sandbox' }).payments.sandboxSecret).toBe(payments.sandboxSecret);
  });

  it('takes SANDBOX_PAYMENT_SECRET when set, and refuses a short one', () => {
    const secret = 's'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir(), PAYMENT_PROVIDER: 'sandbox', SANDBOX_PAYMENT_SECRET: secret }).payments.sandboxSecret).toBe(secret);
    expect(() => loadConfig({ DATA_DIR: dataDir(), SANDBOX_PAYMENT_SECRET: 'short' })).toThrow(ConfigError);
  });

  it('reads the Montonio keys, with the Montonio sandbox API by default', () => {
    const env = { DATA_DIR: dataDir(), PAYMENT_PROVIDER: 'montonio', MONTONIO_ACCESS_KEY: 'access', MONTONIO_SECRET_KEY: 'secret' };
    expect(loadConfig(env).payments).toEqual({
      provider: 'montonio', sandboxSecret: '',
      montonio: { accessKey: 'access', secretKey: 'secret', apiUrl: 'https://sandbox-stargate.montonio.com/api' },
    });
    expect(loadConfig({ ...env, MONTONIO_API_URL: 'https://stargate.montonio.com/api/' }).payments.montonio?.apiUrl)
      .toBe('https://stargate.montonio.com/api');
  });

  it('refuses an unknown provider, Montonio without keys and a malformed API URL', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), PAYMENT_PROVIDER: 'montonio', MONTONIO_ACCESS_KEY: 'a' })).toThrow(/MONTONIO_SECRET_KEY/);
    expect(() => loadConfig({
      DATA_DIR: dataDir(), PAYMENT_PROVIDER: 'montonio', MONTONIO_ACCESS_KEY: 'a', MONTONIO_SECRET_KEY: 'b', MONTONIO_API_URL: 'ftp://x',
    })).toThrow(/MONTONIO_API_URL/);
  });
});
