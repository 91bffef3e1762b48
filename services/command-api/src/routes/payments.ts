/**
 * The payment commands (spec §2 "Payment", §7 /payment/*; docs/decisions/0018):
 *
 * | route | who | answer |
 * |---|---|---|
 * | GET /payment/methods | authenticated | PaymentMethodsAnswer: the provider's countries and banks |
 * | POST /payment/order | authenticated participant | PaymentOrderAnswer {paymentUrl, orderId, reference, amount (EUR)} |
 * | GET /payment/return?order-token=… | the payer's browser, back from the provider | 303 to /payment/success or /payment/failed |
 * | POST /payment/notification/{provider} | the provider (signed token, no session) | {ok: true}, or 400 INVALID_NOTIFICATION |
 * | POST /admin/payment/{reference}/refund | administrators (403 otherwise) | RefundAnswer {success, orderId, reference, refunded, refundedTotal, remaining (EUR), full, position} |
 *
 * A notification and a return carry the same kind of signed order token and are handled alike:
 * verified by the provider adapter (signature, access key, expiry, amount), then recorded by
 * CommandService.recordPaymentOutcome, which is idempotent (the same notification twice, or after
 * the return, records one payment). A refused token changes nothing and is logged at warn with
 * the reason — never the token. POST /payment/order honours the Idempotency-Key (docs/decisions/0108):
 * the order's id follows from the command id, so a retry finds the order the first request made,
 * and the provider's answer (its payment URL) is kept for a day in the shared cache, so the retry
 * answers the same URL without asking the provider again (a provider refuses a merchant
 * reference twice). Without a key every request is a new order (an unpaid one costs nothing).
 *
 * Money (spec §3/§9): the order's grandTotal and payment.amount arrive in EUR and become
 * integer cents here, before anything else (parseEuros: exact; INVALID_AMOUNT for a string, a
 * negative, more than two decimals or over 1 000 000 EUR); the answer's amount is EUR again. The
 * commands, events and read models count cents.
 *
 * Spec §9: POST /payment/order with `forTeam: true` is a company team's captain
 * paying the fee of every unpaid member at once (the answer names whom it `covers`); its
 * confirmation marks them all paid through the same notification and return as any order. POST
 * /admin/payment/{reference}/refund records an administrator's refund (amount in EUR, default the
 * whole rest of the order; REFUND_EXCEEDS_PAYMENT above it, ORDER_NOT_PAID for an unpaid order);
 * the refund itself happens at the provider or the bank, outside the site.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorAnswer,
  OrderParams,
  PaymentMethodsAnswer,
  PaymentNotificationAnswer,
  PaymentNotificationBody,
  PaymentOrderAnswer,
  PaymentOrderBody,
  RefundAnswer,
  RefundBody,
  fromSpecLanguage,
  type Language,
} from '@sinilill/contracts';
import { requireAdmin, routeFile } from '@sinilill/http';
import type { CommandService, PaymentOrderView } from '@sinilill/commands';
import { DomainError, centsToEuros, euroText, parseEuros, type Edition } from '@sinilill/domain';
import {
  PaymentProviderError,
  PaymentVerificationError,
  type PaymentCountry,
  type PaymentNotification,
  type PaymentProvider,
  type SharedCache,
} from '@sinilill/payments';
import { commandRequest, runCommand } from '../command-request';
import { localSharedCache } from '../shared-cache';
import type { RouteDependencies } from '../dependencies';

export interface PaymentRouteOptions {
  commands: CommandService;
  provider: PaymentProvider;
  /** The site's address without a trailing slash (config.publicUrl): return and notification URLs. */
  publicUrl: string;
  /** The edition named in the payment's description; default: the current one (CommandService.editions at the app's clock). */
  edition?: Edition;
  /**
   * Where the provider's answers to keyed orders are kept for their retries, shared by every
   * process (Redis, server.ts); default: this process's memory.
   */
  answers?: SharedCache;
}

/** How long a keyed order's answer is kept for a retry: a day (the client retries within seconds; a day covers a reload). */
const ORDER_ANSWER_TTL_MS = 24 * 60 * 60_000;

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer, 502: ErrorAnswer };

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
function localeOf(body: PaymentOrderBody, request: FastifyRequest): Language {
  if (body.lang) return fromSpecLanguage(body.lang);
  const accepted = request.headers['accept-language'];
  return typeof accepted === 'string' && /^\s*en\b/i.test(accepted) ? 'en' : 'et';
}

/** The payment's line on the payer's bank statement (a team fee names how many it pays for). */
function description(order: PaymentOrderView, locale: Language, year: number): string {
  const people = order.covers?.length ?? 1;
  const what = order.kind === 'donation'
    ? (locale === 'et' ? 'annetus' : 'donation')
    : order.covers
      ? (locale === 'et' ? `tiimi osalustasu (${people} in)` : `team participation fee (${people} people)`)
      : (locale === 'et' ? 'osalustasu' : 'participation fee');
  return `Sinilill ${year} ${what} ${order.reference}`;
}

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRouteOptions> = async (app, options) => {
  const { commands, provider, publicUrl } = options;
  const answers = options.answers ?? localSharedCache();
  /** The year on the bank statement: the given edition, else the current one (the orders of which are taken). */
  const editionYear = async (): Promise<number> => options.edition?.year
    ?? (await commands.editions()).current(commands.now().toISOString())?.edition.year
    ?? commands.now().getUTCFullYear();

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
      if (!result.recorded) log.warn({ provider: provider.name, via, orderId, providerStatus, reason: `order already ${result.order.status}` }, 'payment token changed nothing');
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
    // Euros at the edge, cents inside: refused before the provider is asked anything.
    const grandTotalCents = parseEuros(body.grandTotal);
    const amountCents = parseEuros(body.payment.amount);
    const country = body.payment.methodOptions.preferredCountry;
    const countries = await methodsOf(provider, request.log);
    const setup = countries.find((c) => c.country === country);
    // With an Idempotency-Key a retry runs as a repeat of the same command: the same order.
    const command = commandRequest(request);
    return commands.idempotent(command, async () => {
      const { order } = await commands.orderPayment({
        isPaid: body.isPaid,
        grandTotalCents,
        amountCents,
        country,
        method: body.payment.methodOptions.preferredProvider,
        provider: provider.name,
        countryMethods: setup ? setup.methods.map((m) => m.code) : null,
        ...(body.forTeam ? { forTeam: true } : {}),
      }, command);
      const keyed = command.metadata.requestFingerprint !== undefined;
      const kept = keyed ? await answers.get(`payment-order-answer:${order.orderId}`).catch(() => null) : null;
      if (kept !== null) return JSON.parse(kept) as PaymentOrderAnswer;
      // A repeat of an order the provider did not take answers as the first request did.
      if (order.status === 'failed') throw new DomainError('PAYMENT_PROVIDER_UNAVAILABLE');
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
          description: description(order, locale, await editionYear()),
        });
        const answer: PaymentOrderAnswer = {
          paymentUrl: created.paymentUrl, orderId: order.orderId, reference: order.reference, amount: centsToEuros(order.amountCents),
          ...(order.covers ? { covers: [...order.covers] } : {}),
        };
        // A cache that fails costs only the retry's answer (the provider is asked again then).
        if (keyed) await answers.set(`payment-order-answer:${order.orderId}`, JSON.stringify(answer), ORDER_ANSWER_TTL_MS).catch(() => undefined);
        return answer;
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        request.log.warn({ provider: provider.name, orderId: order.orderId, err: error.message }, 'the provider did not take the order');
        await commands.recordPaymentOutcome({
          orderId: order.orderId, provider: provider.name, status: 'FAILED', providerStatus: 'PROVIDER_UNAVAILABLE',
          amountCents: order.amountCents, currency: 'EUR', providerOrderId: null,
        });
        throw new DomainError('PAYMENT_PROVIDER_UNAVAILABLE');
      }
    });
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

  /**
   * An administrator records a refund: the order by its reference (or id), the
   * amount in EUR (parseEuros: INVALID_AMOUNT) or nothing for the whole rest, and why. Admin only,
   * checked before the body is read (401, 403 FORBIDDEN); the payment decider checks the role again.
   * An Idempotency-Key makes a retry count once (runCommand, docs/decisions/0007).
   * @throws DomainError NOT_FOUND, INVALID_REQUEST, ORDER_NOT_PAID, INVALID_AMOUNT,
   *   REFUND_EXCEEDS_PAYMENT, VALUE_TOO_LONG, IDEMPOTENCY_KEY_REUSED.
   */
  app.post('/admin/payment/:reference/refund', {
    onRequest: [app.authenticate, requireAdmin],
    schema: { params: OrderParams, body: RefundBody, response: { 200: RefundAnswer, ...errors } },
  }, async (request) => {
    const amountCents = request.body.amount === undefined ? null : parseEuros(request.body.amount);
    const result = await runCommand(commands, request, (command) =>
      commands.refundPayment(request.params.reference, { amountCents, reason: request.body.reason }, command));
    const { order } = result;
    return {
      success: true,
      orderId: order.orderId,
      reference: order.reference,
      refunded: centsToEuros(result.refundedCents),
      refundedTotal: centsToEuros(result.refundedTotalCents),
      remaining: centsToEuros(order.amountCents - result.refundedTotalCents),
      full: result.refundedTotalCents === order.amountCents,
      position: result.position,
    };
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

/** Served under /api by being in routes/ (route-files.ts); only with a payment provider. */
export default routeFile(paymentRoutes, (deps: RouteDependencies) => (deps.payments ? { commands: deps.commands, ...deps.payments } : null));
