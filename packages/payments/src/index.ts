/**
 * @sinilill/payments — the payment provider port and its adapters (docs/decisions/0018): `sandbox`, the
 * embedded default test bank, and `montonio`, Montonio's Stargate API. createProvider picks one
 * from the configuration (PAYMENT_PROVIDER).
 */
import { MontonioProvider } from './montonio';
import type { PaymentProvider } from './port';
import type { SharedCache } from './shared-cache';
import { SandboxProvider } from './sandbox';
import { UnconfiguredProvider } from './unconfigured';

export * from './port';
export { SandboxProvider, SANDBOX_ACCESS_KEY, SANDBOX_SETUP } from './sandbox';
export { UnconfiguredProvider } from './unconfigured';
export type { SandboxCheckout, SandboxCompletion, SandboxOptions } from './sandbox';
export { MontonioProvider, MONTONIO_METHODS_CACHE_KEY, MONTONIO_SANDBOX_API_URL } from './montonio';
export type { SharedCache } from './shared-cache';
export type { MontonioOptions } from './montonio';
export { signToken, verifyOrderToken, verifySignedToken, TOKEN_TTL_SECONDS } from './order-token';
export { formatAmount, invalidSessionPage } from './sandbox-page';

/** The provider part of the configuration (packages/config `payments`, plus the site's address). */
export interface ProviderConfig {
  /** PAYMENT_PROVIDER; null when unset (no payments). */
  provider: 'sandbox' | 'montonio' | null;
  /** SANDBOX_PAYMENT_SECRET (generated into DATA_DIR when unset). */
  sandboxSecret: string;
  /** MONTONIO_ACCESS_KEY, MONTONIO_SECRET_KEY, MONTONIO_API_URL; null unless the provider is montonio. */
  montonio: { accessKey: string; secretKey: string; apiUrl: string } | null;
}

/**
 * The configured provider (UnconfiguredProvider when PAYMENT_PROVIDER is unset). `publicUrl` is the site's address (config.publicUrl), where the
 * sandbox's checkout and logos are served. `cache`: where the provider's bank list is shared with
 * the other processes (the sandbox's list is a constant and needs none).
 * @throws Error when PAYMENT_PROVIDER is montonio without its keys (loadConfig refuses that first).
 */
export function createProvider(config: ProviderConfig, options: { publicUrl: string; fetch?: typeof fetch; cache?: SharedCache }): PaymentProvider {
  if (config.provider === 'montonio') {
    if (!config.montonio) throw new Error('PAYMENT_PROVIDER=montonio needs MONTONIO_ACCESS_KEY and MONTONIO_SECRET_KEY');
    return new MontonioProvider({
      ...config.montonio, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.cache ? { methodsCache: options.cache } : {}),
    });
  }
  // The sandbox only when chosen; unset, payments answer PAYMENT_PROVIDER_UNAVAILABLE.
  if (config.provider === null) return new UnconfiguredProvider();
  return new SandboxProvider({ secret: config.sandboxSecret, publicUrl: options.publicUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
}
