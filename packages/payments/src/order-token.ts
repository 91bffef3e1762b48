/**
 * Montonio's token format (Stargate v2), which the sandbox speaks too: HS256 JWTs carrying the
 * store's accessKey, signed with its secret key, with an `exp`. Requests to the provider are such
 * tokens (an order is POSTed as `{data: token}`, a GET carries one as `Authorization: Bearer`); the
 * provider's notifications are an order token (`{orderToken}` to the notificationUrl, and
 * `?order-token=` on the return) with the order's merchantReference, paymentStatus, grandTotal in
 * euros and currency.
 */
import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { eurosToCents, type PaymentStatus } from '@sinilill/domain';
import { PaymentVerificationError, type PaymentNotification } from './port';

/** Lifetime of the tokens this application signs: 10 minutes (Montonio recommends short ones). */
export const TOKEN_TTL_SECONDS = 600;

/** The key bytes of an HS256 secret. */
export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/**
 * Signs `payload` as an HS256 JWT (header typ JWT) that expires `ttlSeconds` after now (real
 * time: the provider judges expiry by its clock, not the application's simulated one).
 */
export function signToken(payload: JWTPayload, secret: string, ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secretKey(secret));
}

/** The application's word for each Montonio paymentStatus; anything unknown waits (PENDING). */
const STATUSES: Record<string, PaymentStatus> = {
  PAID: 'PAID',
  ABANDONED: 'FAILED',
  VOIDED: 'FAILED',
  PENDING: 'PENDING',
  AUTHORIZED: 'PENDING',
  REFUNDED: 'REFUNDED',
  PARTIALLY_REFUNDED: 'REFUNDED',
};

/**
 * Verifies an HS256 token with `secret` and requires `exp`.
 * @throws PaymentVerificationError malformed | signature | algorithm | expired | claims.
 */
export async function verifySignedToken(token: string, secret: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new PaymentVerificationError('expired');
    if (error instanceof errors.JWSSignatureVerificationFailed) throw new PaymentVerificationError('signature');
    if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) throw new PaymentVerificationError('algorithm');
    if (error instanceof errors.JWTClaimValidationFailed) throw new PaymentVerificationError('claims');
    throw new PaymentVerificationError('malformed');
  }
}

/**
 * Verifies an order token (see the module) for the store of `accessKey` and reads it.
 * @throws PaymentVerificationError as verifySignedToken, or access-key (another store's token),
 *   claims (no merchantReference or paymentStatus), amount (grandTotal not euros with at most two
 *   decimals).
 */
export async function verifyOrderToken(token: string, store: { secret: string; accessKey: string }): Promise<PaymentNotification> {
  const claims = await verifySignedToken(token, store.secret);
  if (claims.accessKey !== store.accessKey) throw new PaymentVerificationError('access-key');
  const { merchantReference, paymentStatus, currency, uuid } = claims;
  if (typeof merchantReference !== 'string' || merchantReference === '' || typeof paymentStatus !== 'string' || typeof currency !== 'string') {
    throw new PaymentVerificationError('claims');
  }
  const amountCents = eurosToCents(claims.grandTotal);
  if (amountCents === null) throw new PaymentVerificationError('amount');
  return {
    orderId: merchantReference,
    providerOrderId: typeof uuid === 'string' ? uuid : null,
    status: STATUSES[paymentStatus] ?? 'PENDING',
    providerStatus: paymentStatus,
    amountCents,
    currency,
  };
}
