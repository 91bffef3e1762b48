/**
 * The command metadata of an HTTP request, shared by every command route: who acts (the
 * authenticated actor), the command id (from an Idempotency-Key header, scoped to the user, so a
 * retried request appends nothing twice; else a fresh UUID) and the correlation id
 * (x-correlation-id, else a fresh UUID). Keys outside the pattern are ignored, not refused.
 */
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { CommandRequest } from '@sinilill/commands';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

/** Command metadata from the request: Idempotency-Key (optional) and x-correlation-id. */
export function commandRequest(request: FastifyRequest): CommandRequest {
  const key = request.headers['idempotency-key'];
  const correlation = request.headers['x-correlation-id'];
  const commandId = typeof key === 'string' && IDEMPOTENCY_KEY.test(key) ? `${request.actor.userId}:${key}` : randomUUID();
  const correlationId = typeof correlation === 'string' && IDEMPOTENCY_KEY.test(correlation) ? correlation : randomUUID();
  return { actor: request.actor, metadata: { commandId, correlationId, causationId: null } };
}
