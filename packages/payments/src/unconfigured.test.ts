import { describe, expect, it } from 'vitest';
import { createProvider, PaymentProviderError, PaymentVerificationError, UnconfiguredProvider } from './index';

describe('no PAYMENT_PROVIDER: no sandbox by default', () => {
  const provider = createProvider({ provider: null, sandboxSecret: '', montonio: null }, { publicUrl: 'http://127.0.0.1:3000' });

  it('is the unconfigured provider, not the sandbox', () => {
    expect(provider).toBeInstanceOf(UnconfiguredProvider);
    expect(provider.name).toBe('none');
  });

  it('lists no methods and places no order: both fail as an unavailable provider', async () => {
    await expect(provider.listMethods()).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(provider.createOrder({} as never)).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('accepts no notification token', async () => {
    await expect(provider.verifyToken('eyJhbGciOiJIUzI1NiJ9.e30.x')).rejects.toBeInstanceOf(PaymentVerificationError);
  });
});
