/**
 * The sandbox provider's test bank (docs/decisions/0018), served by the command API when
 * PAYMENT_PROVIDER is sandbox (the default):
 *
 * | route | answer |
 * |---|---|
 * | GET /payment/sandbox/checkout/{orderId}?session=… | the checkout page (HTML, the order's language) |
 * | POST /payment/sandbox/checkout/{orderId} (form: session, outcome succeed or fail, method) | the signed notification is sent to the notificationUrl over HTTP, then 303 to returnUrl?order-token=… |
 * | GET /payment/sandbox/logos/{code}.svg | a bank's logo badge |
 *
 * A forged, expired or foreign session gets a 400 page and nothing is sent.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import Type from 'typebox';
import { invalidSessionPage, PaymentVerificationError, type SandboxCheckout, type SandboxProvider } from '@sinilill/payments';

export interface SandboxRouteOptions {
  sandbox: SandboxProvider;
}

/** The pages hold no script and load nothing from elsewhere. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const OrderParams = Type.Object({ orderId: Type.String({ pattern: '^[0-9a-f-]{36}$' }) });
const LogoParams = Type.Object({ file: Type.String({ pattern: '^[A-Z0-9]{4,11}\\.svg$' }) });

export const sandboxRoutes: FastifyPluginAsync<SandboxRouteOptions> = async (app, { sandbox }) => {
  // The checkout's form posts urlencoded fields (this plugin's scope only).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const open = async (orderId: string, session: unknown, reply: FastifyReply): Promise<SandboxCheckout | null> => {
    try {
      if (typeof session !== 'string') throw new PaymentVerificationError('malformed');
      return await sandbox.openCheckout(orderId, session);
    } catch (error) {
      if (!(error instanceof PaymentVerificationError)) throw error;
      reply.log.warn({ provider: sandbox.name, orderId, reason: error.reason }, 'sandbox checkout session refused');
      await reply.status(400).headers(PAGE_HEADERS).send(invalidSessionPage());
      return null;
    }
  };

  app.get('/payment/sandbox/checkout/:orderId', { schema: { params: OrderParams } }, async (request, reply) => {
    const { orderId } = request.params as { orderId: string };
    const session = (request.query as Record<string, unknown>).session;
    const checkout = await open(orderId, session, reply);
    if (!checkout) return reply;
    return reply.headers(PAGE_HEADERS).send(sandbox.checkoutPage(checkout, session as string));
  });

  app.post('/payment/sandbox/checkout/:orderId', { schema: { params: OrderParams } }, async (request, reply) => {
    const { orderId } = request.params as { orderId: string };
    const form = (request.body ?? {}) as Record<string, unknown>;
    const checkout = await open(orderId, form.session, reply);
    if (!checkout) return reply;
    if (form.outcome !== 'succeed' && form.outcome !== 'fail') {
      return reply.status(400).headers(PAGE_HEADERS).send(invalidSessionPage());
    }
    const done = await sandbox.complete(checkout, form.outcome, typeof form.method === 'string' ? form.method : undefined);
    if ('error' in done.notification || done.notification.status !== 200) {
      // The return carries the same token, so the outcome is recorded anyway.
      request.log.warn({ provider: sandbox.name, orderId, notification: done.notification }, 'sandbox notification not accepted');
    }
    return reply.redirect(done.redirectUrl, 303);
  });

  app.get('/payment/sandbox/logos/:file', { schema: { params: LogoParams } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const svg = sandbox.logo(file.slice(0, -'.svg'.length));
    if (svg === null) return reply.status(404).send({ message: 'NOT_FOUND' });
    return reply.headers({ 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }).send(svg);
  });
};
