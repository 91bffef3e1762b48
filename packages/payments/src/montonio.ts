/**
 * The `montonio` payment provider (docs/decisions/0018): Montonio's payment-initiation API, Stargate v2
 * (https://docs.montonio.com/api/stargate/reference).
 *
 * - Authentication: HS256 JWTs with the store's accessKey in the payload, signed with its secret
 *   key, short-lived (`exp` 10 minutes). A GET carries one as `Authorization: Bearer …`; a POST's
 *   body is `{data: <token of the request data>}`.
 * - Banks: GET {apiUrl}/stores/payment-methods → paymentMethods.paymentInitiation.setup, an object
 *   of countries (in the provider's order), each with paymentMethods [{code, name, logoUrl,
 *   supportedCurrencies, uiPosition}]. Kept for 10 minutes: Montonio asks not to fetch the list for
 *   every checkout. With a SharedCache (Redis) the list is kept there, so every
 *   process of the site shares one copy and the provider is asked once per TTL, whichever process
 *   asks first; when the cache misses, fails or holds something unreadable, the process falls back
 *   to its own copy, then to the provider.
 * - Orders: POST {apiUrl}/orders with the order (merchantReference = our order id, returnUrl,
 *   notificationUrl, currency EUR, grandTotal in decimal euros = the line items' sum =
 *   payment.amount, locale, payment {method paymentInitiation, methodOptions {preferredProvider,
 *   preferredCountry, preferredLocale, paymentDescription}}) → {uuid, paymentUrl}.
 * - Notifications: Montonio POSTs `{orderToken}` to the notificationUrl and appends
 *   `?order-token=` to the returnUrl; the token is verified with the secret key and must carry our
 *   accessKey (./order-token.ts).
 */
import { centsToEuros } from '@sinilill/domain';
import { signToken, verifyOrderToken } from './order-token';
import {
  PaymentProviderError,
  type CreatedPaymentOrder,
  type PaymentCountry,
  type PaymentNotification,
  type PaymentOrderRequest,
  type PaymentProvider,
} from './port';
import type { SharedCache } from './shared-cache';

/** Montonio's sandbox API (the default of MONTONIO_API_URL). */
export const MONTONIO_SANDBOX_API_URL = 'https://sandbox-stargate.montonio.com/api';

export interface MontonioOptions {
  accessKey: string;
  secretKey: string;
  /** Base URL without a trailing slash; default MONTONIO_SANDBOX_API_URL. */
  apiUrl?: string;
  /** How long the bank list is kept, ms; default 10 minutes. */
  methodsTtlMs?: number;
  /** Where the bank list is shared with the other processes (Redis); default: this process only. */
  methodsCache?: SharedCache;
  /** How long a request may take, ms; default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The part of Montonio's payment-methods answer this adapter reads. */
interface MethodsAnswer {
  paymentMethods?: {
    paymentInitiation?: {
      setup?: Record<string, { supportedCurrencies?: string[]; paymentMethods?: { code?: unknown; name?: unknown; logoUrl?: unknown; uiPosition?: unknown; supportedCurrencies?: string[] }[] }>;
    };
  };
}

/** Montonio's countries and EUR banks in its order (unknown shapes answer PaymentProviderError). */
function countriesOf(answer: MethodsAnswer): PaymentCountry[] {
  const setup = answer.paymentMethods?.paymentInitiation?.setup;
  if (!setup || typeof setup !== 'object') throw new PaymentProviderError('montonio: no paymentInitiation setup in the payment methods');
  const countries: PaymentCountry[] = [];
  for (const [country, entry] of Object.entries(setup)) {
    if (!/^[A-Z]{2}$/.test(country)) continue;
    const methods = (entry.paymentMethods ?? [])
      .filter((m) => !m.supportedCurrencies || m.supportedCurrencies.includes('EUR'))
      .filter((m) => typeof m.code === 'string' && typeof m.name === 'string')
      .map((m) => ({
        code: m.code as string,
        name: m.name as string,
        logoUrl: typeof m.logoUrl === 'string' ? m.logoUrl : '',
        uiPosition: typeof m.uiPosition === 'number' && Number.isInteger(m.uiPosition) ? m.uiPosition : 0,
      }))
      .sort((a, b) => a.uiPosition - b.uiPosition);
    if (methods.length > 0) countries.push({ country, methods });
  }
  return countries;
}

/** The key of the bank list in a SharedCache. */
export const MONTONIO_METHODS_CACHE_KEY = 'payment-methods:montonio';

/** A bank list read back from a SharedCache; null when it is not one (a stale format, a stranger's value). */
function parseCachedCountries(text: string | null): PaymentCountry[] | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const valid = Array.isArray(value) && value.every((country: unknown) => {
    const { country: code, methods } = (country ?? {}) as { country?: unknown; methods?: unknown };
    return typeof code === 'string' && Array.isArray(methods) && methods.every((method: unknown) => {
      const m = (method ?? {}) as Record<string, unknown>;
      return typeof m.code === 'string' && typeof m.name === 'string' && typeof m.logoUrl === 'string' && typeof m.uiPosition === 'number';
    });
  });
  return valid ? (value as PaymentCountry[]) : null;
}

/** The Montonio adapter. */
export class MontonioProvider implements PaymentProvider {
  readonly name = 'montonio';
  private readonly apiUrl: string;
  private readonly send: typeof fetch;
  /** The list this process fetched from the provider last, and when (performance.now()). */
  private fetched: { at: number; countries: PaymentCountry[] } | null = null;
  /** The lookup in progress: concurrent callers share it. */
  private pending: Promise<PaymentCountry[]> | null = null;

  constructor(private readonly options: MontonioOptions) {
    this.apiUrl = (options.apiUrl ?? MONTONIO_SANDBOX_API_URL).replace(/\/+$/, '');
    this.send = options.fetch ?? fetch;
  }

  /**
   * The bank list: from the shared cache, else this process's copy younger than the TTL, else the
   * provider (then stored in both). A failed fetch is not kept: the next call asks again.
   */
  async listMethods(): Promise<PaymentCountry[]> {
    this.pending ??= this.lookUpMethods().finally(() => { this.pending = null; });
    return this.pending;
  }

  private async lookUpMethods(): Promise<PaymentCountry[]> {
    const ttl = this.options.methodsTtlMs ?? 600_000;
    const cache = this.options.methodsCache;
    if (cache) {
      const shared = parseCachedCountries(await cache.get(MONTONIO_METHODS_CACHE_KEY).catch(() => null));
      if (shared) return shared;
    }
    if (this.fetched && performance.now() - this.fetched.at <= ttl) return this.fetched.countries;
    const countries = await this.fetchMethods();
    this.fetched = { at: performance.now(), countries };
    // Awaited (a Redis command is bounded, 250 ms in the command API), so that a process asking
    // right after this answer finds it; a failure only costs the other processes a fetch.
    if (cache) await cache.set(MONTONIO_METHODS_CACHE_KEY, JSON.stringify(countries), ttl).catch(() => undefined);
    return countries;
  }

  private async fetchMethods(): Promise<PaymentCountry[]> {
    const token = await signToken({ accessKey: this.options.accessKey }, this.options.secretKey);
    const answer = await this.request<MethodsAnswer>('/stores/payment-methods', { method: 'GET', headers: { authorization: `Bearer ${token}` } });
    return countriesOf(answer);
  }

  async createOrder(order: PaymentOrderRequest): Promise<CreatedPaymentOrder> {
    const euros = centsToEuros(order.amountCents);
    const token = await signToken({
      accessKey: this.options.accessKey,
      merchantReference: order.orderId,
      returnUrl: order.returnUrl,
      notificationUrl: order.notificationUrl,
      currency: 'EUR',
      grandTotal: euros,
      locale: order.locale,
      lineItems: [{ name: order.description, quantity: 1, finalPrice: euros }],
      payment: {
        method: 'paymentInitiation',
        currency: 'EUR',
        amount: euros,
        methodOptions: {
          ...(order.method ? { preferredProvider: order.method } : {}),
          preferredCountry: order.country,
          preferredLocale: order.locale,
          paymentDescription: order.description,
        },
      },
    }, this.options.secretKey);
    const answer = await this.request<{ paymentUrl?: unknown; uuid?: unknown }>('/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: token }),
    });
    if (typeof answer.paymentUrl !== 'string' || !/^https?:\/\//.test(answer.paymentUrl)) {
      throw new PaymentProviderError('montonio: the order answer has no paymentUrl');
    }
    return { paymentUrl: answer.paymentUrl, providerOrderId: typeof answer.uuid === 'string' ? answer.uuid : null };
  }

  verifyToken(token: string): Promise<PaymentNotification> {
    return verifyOrderToken(token, { secret: this.options.secretKey, accessKey: this.options.accessKey });
  }

  /** One API call; anything but a 2xx JSON answer is a PaymentProviderError (no token in its message). */
  private async request<T>(path: string, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await this.send(`${this.apiUrl}${path}`, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (error) {
      throw new PaymentProviderError(`montonio ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    if (!response.ok) throw new PaymentProviderError(`montonio ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PaymentProviderError(`montonio ${path} answered ${response.status} without JSON`);
    }
  }
}
