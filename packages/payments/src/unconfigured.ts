/**
 * The provider when PAYMENT_PROVIDER is unset (the sandbox, where the payer picks the
 * outcome, runs only when explicitly chosen): every request fails as a provider that does not
 * answer (the API's PAYMENT_PROVIDER_UNAVAILABLE, 502), and every token is refused.
 */
import { PaymentProviderError, PaymentVerificationError, type CreatedPaymentOrder, type PaymentCountry, type PaymentNotification, type PaymentProvider } from './port';

export class UnconfiguredProvider implements PaymentProvider {
  readonly name = 'none';

  /** @throws PaymentProviderError always: no provider is configured. */
  async listMethods(): Promise<PaymentCountry[]> {
    throw new PaymentProviderError('no payment provider is configured (PAYMENT_PROVIDER)');
  }

  /** @throws PaymentProviderError always: no provider is configured. */
  async createOrder(): Promise<CreatedPaymentOrder> {
    throw new PaymentProviderError('no payment provider is configured (PAYMENT_PROVIDER)');
  }

  /** @throws PaymentVerificationError ('claims') always: no provider issued the token. */
  async verifyToken(): Promise<PaymentNotification> {
    throw new PaymentVerificationError('claims');
  }
}
