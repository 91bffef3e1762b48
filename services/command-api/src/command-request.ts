/**
 * The command metadata of an HTTP request, shared by every command route: who acts (the
 * authenticated actor), the command id and the correlation id (the request's id: its valid
 * x-correlation-id, else a fresh UUID, @sinilill/http correlation.ts).
 *
 * The command id comes from an `Idempotency-Key` header, scoped to the user
 * (`<userId>:<key>`), so that a retried request appends nothing twice (docs/decisions/0007); without a key it is a
 * fresh UUID. A keyed request also carries its *fingerprint* (the route pattern, the validated
 * path parameters and body: requestFingerprint of @sinilill/commands, keyed with the app's
 * fingerprintKey so that no secret of a body can be guessed from the log), recorded with the
 * command's events: the key stands for that one request. Keys outside the pattern are ignored, not
 * refused.
 */
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { requestFingerprint, type CommandRequest, type CommandService } from '@sinilill/commands';
import type { ActingUser } from '@sinilill/domain';
import { IDEMPOTENCY_KEY_PATTERN } from '@sinilill/http';

declare module 'fastify' {
  interface FastifyInstance {
    /** The key of request fingerprints (fingerprintKey of the JWT secret; buildCommandApi sets it). */
    fingerprintKey?: Buffer;
  }
}

// One pattern with the gateway, which resends a command only when its key is one the API uses.
const IDEMPOTENCY_KEY = IDEMPOTENCY_KEY_PATTERN;

/**
 * The route a request is fingerprinted under: its method and route pattern, e.g.
 * `PUT /api/entry/:id/edit` (not the URL, so the path's values count once, as params).
 */
export function routeOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

/**
 * Command metadata from the request: Idempotency-Key (optional; with it the command id
 * `<userId>:<key>`, `visitor:<key>` for a caller without an account, and the request
 * fingerprint of route, params and body) and the correlation id (`request.id`). `actor`: the authenticated actor
 * by default; the visitor routes pass theirs.
 * Call it in the handler, after validation, so that the fingerprint covers the validated input.
 */
export function commandRequest(request: FastifyRequest, actor: ActingUser = request.actor): CommandRequest {
  const key = request.headers['idempotency-key'];
  // The request's correlation id (@sinilill/http correlation.ts: a valid x-correlation-id or a UUID).
  const correlationId = request.id;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    return { actor, metadata: { commandId: randomUUID(), correlationId, causationId: null } };
  }
  const fingerprint = requestFingerprint(routeOf(request), { params: request.params ?? null, body: request.body ?? null }, request.server.fingerprintKey);
  // A visitor (no account yet: registration) is scoped as `visitor`; the key is a random UUID.
  const scope = actor.userId ?? 'visitor';
  return {
    actor,
    metadata: { commandId: `${scope}:${key}`, correlationId, causationId: null, requestFingerprint: fingerprint },
  };
}

/**
 * Runs a route's command with the request's metadata through CommandService.idempotent: with an
 * Idempotency-Key, a repeat of the request (even one sent while the first still runs) answers what
 * the first answered and appends nothing, and the key reused for another request answers 422
 * IDEMPOTENCY_KEY_REUSED. `run` gets the command metadata to pass on (to the CommandService or the
 * AccountService). `checkedByCommand`: the command makes the repeat check itself before any effect
 * (the entry commands), so it is not made up front as well.
 * @throws whatever `run` throws (DomainError → its status), DomainError('IDEMPOTENCY_KEY_REUSED').
 */
export function runCommand<T>(
  commands: Pick<CommandService, 'idempotent'>,
  request: FastifyRequest,
  run: (command: CommandRequest) => Promise<T>,
  options: { checkedByCommand?: boolean } = {},
): Promise<T> {
  const command = commandRequest(request);
  return commands.idempotent(command, () => run(command), options);
}
