/**
 * A local HTTP stand-in for Montonio's Stargate API, enforcing the provider's documented
 * contract (https://docs.montonio.com/api/stargate/reference, guides/orders, guides/webhooks) so
 * that the `montonio` adapter is tested against the rules, not against itself. Independent of the
 * adapter: it verifies and signs with jose directly.
 *
 * - GET /api/stores/payment-methods: `Authorization: Bearer <HS256 JWT {accessKey, exp}>` signed
 *   with the store's secret key → {uuid, name, paymentMethods: {paymentInitiation: {setup: {EE: …}}}}.
 * - POST /api/orders: body `{data: <HS256 JWT of the order>}`; refuses (4xx {message}) a bad
 *   signature, an unknown accessKey, a missing or past exp, a missing field (merchantReference,
 *   returnUrl, notificationUrl, currency, grandTotal, payment, lineItems), a currency other than
 *   EUR, a grandTotal other than the sum of the line items or than payment.amount (compared in
 *   cents), a preferredProvider not in the setup of preferredCountry, a merchantReference used
 *   before → {uuid, paymentUrl, paymentStatus: PENDING, …}.
 * - complete(merchantReference, status): what Montonio does when the payer finishes: signs the
 *   order token {uuid, accessKey, merchantReference, paymentStatus, grandTotal, currency, …},
 *   POSTs `{orderToken}` to the notificationUrl (with `?order-token=` as Montonio does) over real
 *   HTTP, and gives the returnUrl with `order-token` for the browser.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt, jwtVerify, type JWTPayload } from 'jose';

export interface StandInBank {
  code: string;
  name: string;
  uiPosition: number;
  supportedCurrencies: string[];
}

/** The stand-in store's setup: countries in Montonio's order; PL holds PLN banks only. */
export const STAND_IN_SETUP: Record<string, StandInBank[]> = {
  EE: [
    { code: 'LHVBEE22', name: 'LHV', uiPosition: 2, supportedCurrencies: ['EUR'] },
    { code: 'HABAEE2X', name: 'Swedbank', uiPosition: 1, supportedCurrencies: ['EUR'] },
    { code: 'EEUHEE2X', name: 'SEB', uiPosition: 3, supportedCurrencies: ['EUR'] },
  ],
  LV: [{ code: 'HABALV22', name: 'Swedbank', uiPosition: 1, supportedCurrencies: ['EUR'] }],
  PL: [{ code: 'PKOPPLPW', name: 'PKO', uiPosition: 1, supportedCurrencies: ['PLN'] }],
  FI: [{ code: 'NDEAFIHH', name: 'Nordea', uiPosition: 1, supportedCurrencies: ['EUR'] }],
};

/** An order the stand-in took, as its JWT said it. */
export interface StandInOrder {
  uuid: string;
  claims: Record<string, unknown>;
}

export interface MontonioStandIn {
  /** The API base URL (MONTONIO_API_URL), e.g. http://127.0.0.1:1234/api. */
  apiUrl: string;
  /** Orders by merchantReference. */
  orders: Map<string, StandInOrder>;
  /** Every refusal, newest last: path and message. */
  refusals: { path: string; status: number; message: string }[];
  /** How many bank lists it has answered (GET /api/stores/payment-methods, verified). */
  readonly methodListsServed: number;
  /** Signs an order token for a taken order, as Montonio would (overrides for forgeries). */
  orderToken(merchantReference: string, paymentStatus: string, overrides?: { secret?: string; claims?: Record<string, unknown>; expiresInSeconds?: number }): Promise<string>;
  /**
   * The payer finished at the bank: the signed notification goes to the order's notificationUrl;
   * answers the browser's return URL and the notification's HTTP status.
   */
  complete(merchantReference: string, paymentStatus: 'PAID' | 'ABANDONED' | 'PENDING' | 'VOIDED'): Promise<{ orderToken: string; returnUrl: string; notificationStatus: number }>;
  close(): Promise<void>;
}

const cents = (euros: unknown): number | null =>
  typeof euros === 'number' && Number.isFinite(euros) && Math.abs(euros * 100 - Math.round(euros * 100)) < 1e-6 ? Math.round(euros * 100) : null;

const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/[^\s]+$/.test(value);

class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Verifies a store token: known accessKey, HS256 signature with that store's secret, exp present and future. */
async function verifyStoreToken(token: string, stores: Record<string, string>): Promise<JWTPayload> {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw new Refusal(401, 'token is not a JWT');
  }
  const accessKey = unverified.accessKey;
  if (typeof accessKey !== 'string' || !(accessKey in stores)) throw new Refusal(401, 'unknown accessKey');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(stores[accessKey]), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return payload;
  } catch (error) {
    throw new Refusal(401, `token refused: ${error instanceof Error ? error.name : 'error'}`);
  }
}

function validateOrder(claims: JWTPayload, taken: Map<string, StandInOrder>): void {
  const required = ['merchantReference', 'returnUrl', 'notificationUrl', 'currency', 'grandTotal', 'payment', 'lineItems'];
  for (const field of required) if (claims[field] === undefined) throw new Refusal(400, `${field} is required`);
  if (typeof claims.merchantReference !== 'string' || claims.merchantReference === '') throw new Refusal(400, 'merchantReference must be a string');
  if (taken.has(claims.merchantReference)) throw new Refusal(400, 'merchantReference must be unique');
  if (!isUrl(claims.returnUrl) || !isUrl(claims.notificationUrl)) throw new Refusal(400, 'returnUrl and notificationUrl must be URLs');
  if (claims.currency !== 'EUR') throw new Refusal(400, 'currency must be EUR');
  const grandTotal = cents(claims.grandTotal);
  if (grandTotal === null || grandTotal <= 0) throw new Refusal(400, 'grandTotal must be a positive amount in euros');
  const lineItems = claims.lineItems as { name?: unknown; quantity?: unknown; finalPrice?: unknown }[];
  if (!Array.isArray(lineItems) || lineItems.length === 0) throw new Refusal(400, 'lineItems must not be empty');
  let sum = 0;
  for (const item of lineItems) {
    const price = cents(item.finalPrice);
    if (typeof item.name !== 'string' || item.name === '' || !Number.isInteger(item.quantity) || (item.quantity as number) < 1 || price === null) {
      throw new Refusal(400, 'each line item needs name, quantity and finalPrice');
    }
    sum += price * (item.quantity as number);
  }
  if (sum !== grandTotal) throw new Refusal(400, 'grandTotal must equal the sum of the line items');
  const payment = claims.payment as { method?: unknown; amount?: unknown; currency?: unknown; methodOptions?: Record<string, unknown> };
  if (payment.method !== 'paymentInitiation') throw new Refusal(400, 'payment.method must be paymentInitiation');
  if (payment.currency !== 'EUR') throw new Refusal(400, 'payment.currency must be EUR');
  if (cents(payment.amount) !== grandTotal) throw new Refusal(400, 'payment.amount must equal grandTotal');
  const options = payment.methodOptions ?? {};
  if (options.preferredProvider !== undefined) {
    const banks = STAND_IN_SETUP[String(options.preferredCountry)] ?? [];
    if (!banks.some((bank) => bank.code === options.preferredProvider)) throw new Refusal(400, 'preferredProvider is not in the setup of preferredCountry');
  }
}

/** Starts the stand-in on 127.0.0.1 for the stores {accessKey: secretKey}. */
export async function startMontonioStandIn(stores: Record<string, string>): Promise<MontonioStandIn> {
  const app: FastifyInstance = Fastify({ logger: false });
  const orders = new Map<string, StandInOrder>();
  const refusals: MontonioStandIn['refusals'] = [];
  let methodListsServed = 0;
  app.setErrorHandler((error, request, reply) => {
    const status = error instanceof Refusal ? error.status : 400;
    const message = error instanceof Error ? error.message : String(error);
    refusals.push({ path: request.url, status, message });
    return reply.status(status).send({ message });
  });

  app.get('/api/stores/payment-methods', async (request) => {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) throw new Refusal(401, 'Authorization: Bearer is required');
    await verifyStoreToken(header.slice('Bearer '.length), stores);
    methodListsServed += 1;
    const setup = Object.fromEntries(Object.entries(STAND_IN_SETUP).map(([country, banks]) => [country, {
      supportedCurrencies: [...new Set(banks.flatMap((b) => b.supportedCurrencies))],
      paymentMethods: banks.map((b) => ({ ...b, logoUrl: `https://public.montonio.com/logos/${b.code}.png` })),
    }]));
    return {
      uuid: randomUUID(), name: 'Sinilill stand-in store',
      paymentMethods: { paymentInitiation: { processor: 'montonio', setup }, cardPayments: { processor: 'stripe', logoUrl: 'https://public.montonio.com/logos/cards.png' } },
    };
  });

  app.post('/api/orders', async (request) => {
    const body = request.body as { data?: unknown } | undefined;
    if (typeof body?.data !== 'string') throw new Refusal(400, 'data must be the order JWT');
    const claims = await verifyStoreToken(body.data, stores);
    validateOrder(claims, orders);
    const uuid = randomUUID();
    orders.set(claims.merchantReference as string, { uuid, claims: { ...claims } });
    return {
      uuid, paymentStatus: 'PENDING', merchantReference: claims.merchantReference, grandTotal: (claims.grandTotal as number).toFixed(2),
      currency: 'EUR', paymentUrl: `${base}/checkout/${uuid}`,
    };
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const orderToken: MontonioStandIn['orderToken'] = async (merchantReference, paymentStatus, overrides = {}) => {
    const order = orders.get(merchantReference);
    if (!order) throw new Error(`the stand-in took no order ${merchantReference}`);
    const accessKey = order.claims.accessKey as string;
    const payment = order.claims.payment as { methodOptions?: { preferredProvider?: string } };
    const claims = {
      uuid: order.uuid, accessKey, merchantReference, merchantReferenceDisplay: merchantReference, paymentStatus,
      paymentMethod: 'paymentInitiation', paymentProviderName: payment.methodOptions?.preferredProvider ?? null,
      grandTotal: order.claims.grandTotal, currency: order.claims.currency, senderIban: null, senderName: null,
      ...overrides.claims,
    };
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (overrides.expiresInSeconds ?? 600))
      .sign(new TextEncoder().encode(overrides.secret ?? stores[accessKey]));
  };

  return {
    apiUrl: `${base}/api`,
    orders,
    refusals,
    get methodListsServed() {
      return methodListsServed;
    },
    orderToken,
    async complete(merchantReference, paymentStatus) {
      const token = await orderToken(merchantReference, paymentStatus);
      const { notificationUrl, returnUrl } = orders.get(merchantReference)!.claims as { notificationUrl: string; returnUrl: string };
      const response = await fetch(`${notificationUrl}?order-token=${encodeURIComponent(token)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderToken: token }),
      });
      await response.arrayBuffer();
      return { orderToken: token, returnUrl: `${returnUrl}?order-token=${encodeURIComponent(token)}`, notificationStatus: response.status };
    },
    close: () => app.close(),
  };
}
