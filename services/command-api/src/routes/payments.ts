/**
 * The payment commands (issue 7; spec §2 "Payment", §7 /payment/*; docs/architecture.md D18):
 *
 * | route | who | answer |
 * |---|---|---|
 * | GET /payment/methods | authenticated | PaymentMethodsAnswer: the provider's countries and banks |
 * | POST /payment/order | authenticated participant | PaymentOrderAnswer {paymentUrl, orderId, reference, amount (EUR)} |
 * | GET /payment/return?order-token=… | the payer's browser, back from the provider | 303 to /payment/success or /payment/failed |
 * | POST /payment/notification/{provider} | the provider (signed token, no session) | {ok: true}, or 400 INVALID_NOTIFICATION |
 *
 * A notification and a return carry the same kind of signed order token and are handled alike:
 * verified by the provider adapter (signature, access key, expiry, amount), then recorded by
 * CommandService.recordPaymentOutcome, which is idempotent (the same notification twice, or after
 * the return, records one payment). A refused token changes nothing and is logged at warn with
 * the reason — never the token. POST /payment/order takes no Idempotency-Key: every request is a
 * new order (a provider refuses a merchant reference twice), and an unpaid order costs nothing.
 *
 * Money (issue 14; spec §3/§9): the order's grandTotal and payment.amount arrive in EUR and become
 * integer cents here, before anything else (parseEuros: exact; INVALID_AMOUNT for a string, a
 * negative, more than two decimals or over 1 000 000 EUR); the answer's amount is EUR again. The
 * commands, events and read models count cents.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  ErrorAnswer,
  PaymentMethodsAnswer,
  PaymentNotificationAnswer,
  PaymentNotificationBody,
  PaymentOrderAnswer,
  PaymentOrderBody,
} from '@sinilill/contracts';
import type { CommandService, PaymentOrderView } from '@sinilill/commands';
import { DomainError, centsToEuros, currentEdition, euroText, parseEuros, type Edition } from '@sinilill/domain';
import {
  PaymentProviderError,
  PaymentVerificationError,
  type PaymentCountry,
  type PaymentNotification,
  type PaymentProvider,
} from '@sinilill/payments';
import { commandRequest } from '../command-request';

export interface PaymentRouteOptions {
  commands: CommandService;
  provider: PaymentProvider;
  /** The site's address without a trailing slash (config.publicUrl): return and notification URLs. */
  publicUrl: string;
  /** Called with the position after every command that appended (wakes the projectors). */
  appended: (position: number) => void;
  /** Default: the current edition (the year in the payment's description). */
  edition?: Edition;
}

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 502: ErrorAnswer };

/** The provider's setup, or PAYMENT_PROVIDER_UNAVAILABLE. */
async function methodsOf(provider: PaymentProvider, log: FastifyBaseLogger): Promise<PaymentCountry[]> {
  try {
    return await provider.listMethods();
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.warn({ provider: provider.name, err: error.message }, 'payment methods unavailable');
    throw new DomainError('PAYMENT_PROVIDER_UNAVAILABLE');
  }
}

/** The provider's pages' language: the body's `lang`, else Accept-Language, Estonian by default. */
function localeOf(body: PaymentOrderBody, request: FastifyRequest): 'et' | 'en' {
  if (body.lang) return body.lang === 'eng' ? 'en' : 'et';
  const accepted = request.headers['accept-language'];
  return typeof accepted === 'string' && /^\s*en\b/i.test(accepted) ? 'en' : 'et';
}

/** The payment's line on the payer's bank statement. */
function description(order: PaymentOrderView, locale: 'et' | 'en', edition: Edition): string {
  const what = order.kind === 'fee'
    ? (locale === 'et' ? 'osalustasu' : 'participation fee')
    : (locale === 'et' ? 'annetus' : 'donation');
  return `Sinilill ${edition.year} ${what} ${order.reference}`;
}

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRouteOptions> = async (app, options) => {
  const { commands, provider, publicUrl, appended, edition = currentEdition } = options;

  /**
   * Verifies a token and records its outcome. Refusals are logged at warn with the reason and
   * answered INVALID_NOTIFICATION (or NOT_FOUND's code for an order this site never placed); a
   * verified notification that changes nothing (a duplicate, a replay, a pending status) is logged
   * too and answered as recorded.
   * @returns the order after it.
   * @throws DomainError INVALID_NOTIFICATION.
   */
  const settle = async (token: string, log: FastifyBaseLogger, via: 'notification' | 'return'): Promise<PaymentOrderView> => {
    let notification: PaymentNotification;
    try {
      notification = await provider.verifyToken(token);
    } catch (error) {
      if (!(error instanceof PaymentVerificationError)) throw error;
      log.warn({ provider: provider.name, via, reason: error.reason }, 'payment token refused');
      throw new DomainError('INVALID_NOTIFICATION', error.reason);
    }
    const { orderId, status, providerStatus } = notification;
    try {
      const result = await commands.recordPaymentOutcome({ ...notification, provider: provider.name });
      if (result.recorded) appended(result.position);
      else log.warn({ provider: provider.name, via, orderId, providerStatus, reason: `order already ${result.order.status}` }, 'payment token changed nothing');
      return result.order;
    } catch (error) {
      if (!(error instanceof DomainError) || (error.code !== 'NOT_FOUND' && error.code !== 'INVALID_NOTIFICATION')) throw error;
      log.warn({ provider: provider.name, via, orderId, status, reason: error.message }, 'payment token refused');
      throw new DomainError('INVALID_NOTIFICATION', error.message);
    }
  };

  app.get('/payment/methods', {
    onRequest: [app.authenticate],
    schema: { response: { 200: PaymentMethodsAnswer, ...errors } },
  }, async (request) => ({ provider: provider.name, countries: await methodsOf(provider, request.log) }));

  app.post('/payment/order', {
    onRequest: [app.authenticate],
    schema: { body: PaymentOrderBody, response: { 200: PaymentOrderAnswer, ...errors } },
  }, async (request) => {
    const body = request.body;
    // Euros at the edge, cents inside (issue 14): refused before the provider is asked anything.
    const grandTotalCents = parseEuros(body.grandTotal);
    const amountCents = parseEuros(body.payment.amount);
    const country = body.payment.methodOptions.preferredCountry;
    const countries = await methodsOf(provider, request.log);
    const setup = countries.find((c) => c.country === country);
    // No Idempotency-Key here (see above): a fresh command id, and so no request fingerprint.
    const base = commandRequest(request);
    const { order, position } = await commands.orderPayment({
      isPaid: body.isPaid,
      grandTotalCents,
      amountCents,
      country,
      method: body.payment.methodOptions.preferredProvider,
      provider: provider.name,
      countryMethods: setup ? setup.methods.map((m) => m.code) : null,
    }, { ...base, metadata: { commandId: randomUUID(), correlationId: base.metadata.correlationId, causationId: null } });
    appended(position);
    const locale = localeOf(body, request);
    try {
      const created = await provider.createOrder({
        orderId: order.orderId,
        reference: order.reference,
        amountCents: order.amountCents,
        locale,
        country,
        method: body.payment.methodOptions.preferredProvider.trim(),
        returnUrl: `${publicUrl}/api/payment/return`,
        notificationUrl: `${publicUrl}/api/payment/notification/${provider.name}`,
        description: description(order, locale, edition),
      });
      return { paymentUrl: created.paymentUrl, orderId: order.orderId, reference: order.reference, amount: centsToEuros(order.amountCents) };
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      request.log.warn({ provider: provider.name, orderId: order.orderId, err: error.message }, 'the provider did not take the order');
      const failed = await commands.recordPaymentOutcome({
        orderId: order.orderId, provider: provider.name, status: 'FAILED', providerStatus: 'PROVIDER_UNAVAILABLE',
        amountCents: order.amountCents, currency: 'EUR', providerOrderId: null,
      });
      if (failed.recorded) appended(failed.position);
      throw new DomainError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
  });

  // The provider's returnUrl: a browser navigation, so every answer is a redirect to the result page.
  app.get('/payment/return', async (request, reply: FastifyReply) => {
    const token = (request.query as Record<string, unknown>)['order-token'];
    if (typeof token !== 'string' || token === '' || token.length > 8192) {
      request.log.warn({ provider: provider.name, via: 'return', reason: 'no token' }, 'payment token refused');
      return reply.redirect('/payment/failed?code=INVALID_NOTIFICATION', 303);
    }
    let order: PaymentOrderView;
    try {
      order = await settle(token, request.log, 'return');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return reply.redirect(`/payment/failed?code=${error.code}`, 303);
    }
    // Still pending counts as success: the bank has the payment, its confirmation can take up to
    // 72 h (spec §4), and the success page says so.
    return order.status === 'failed'
      ? reply.redirect(`/payment/failed?code=${order.reference}`, 303)
      : reply.redirect(`/payment/success?amount=${euroText(order.amountCents)}&code=${order.reference}`, 303);
  });

  app.post('/payment/notification/:provider', {
    schema: { body: PaymentNotificationBody, response: { 200: PaymentNotificationAnswer, ...errors } },
  }, async (request) => {
    const named = (request.params as { provider: string }).provider;
    if (named !== provider.name) {
      request.log.warn({ provider: provider.name, via: 'notification', reason: 'another provider’s path' }, 'payment token refused');
      throw new DomainError('INVALID_NOTIFICATION', `no provider ${named} here`);
    }
    await settle(request.body.orderToken, request.log, 'notification');
    return { ok: true };
  });
};
