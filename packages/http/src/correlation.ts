/**
 * The correlation id of a request: taken from the client's `x-correlation-id`
 * when it is a plausible id (8 to 100 of `A-Z a-z 0-9 _ . : -`, the pattern of Idempotency-Key),
 * else a fresh UUID — never a client's arbitrary text, which would end up in every log line and in
 * the events' metadata. It is Fastify's request id (`request.id`), so every log line of the
 * request carries it as `correlationId` (requestIdLogLabel), and it is sent back in the answer's
 * `x-correlation-id`. The gateway passes its own on to the API it proxies to, which takes it as
 * its own; the command API writes it into the events' metadata (command-request.ts), the wake-up
 * job and so the projector's batch log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, type onSendHookHandler } from 'fastify';

/** The header, request and answer. */
export const CORRELATION_HEADER = 'x-correlation-id';

/** What a client's correlation id must look like to be kept (else one is generated): Idempotency-Key's pattern. */
export const CORRELATION_ID_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;

/** The request's correlation id: its valid `x-correlation-id`, else a fresh UUID (module docs). */
export function correlationIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const header = request.headers[CORRELATION_HEADER];
  return typeof header === 'string' && CORRELATION_ID_PATTERN.test(header) ? header : randomUUID();
}

/**
 * Fastify options that make the correlation id the request id and label it `correlationId` in
 * the log (a LogController of its own: Fastify 5.12 deprecates the top-level requestIdLogLabel;
 * pass `disableRequestLogging` here, a top-level one is then ignored). `requestIdHeader: false`:
 * Fastify would otherwise take a header's value unchecked.
 */
export function correlationOptions(logging: { disableRequestLogging?: boolean | ((request: FastifyRequest) => boolean) } = {}) {
  return {
    genReqId: correlationIdOf,
    requestIdHeader: false,
    logController: new LogController({ ...logging, requestIdLogLabel: 'correlationId' }),
  } as const satisfies Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'logController'>;
}

/** Echoes the request's correlation id in every answer of `app` (errors and 404s included). */
export function echoCorrelationId(app: FastifyInstance): void {
  const echo: onSendHookHandler = (request, reply, payload, done) => {
    reply.header(CORRELATION_HEADER, request.id);
    done(null, payload);
  };
  app.addHook('onSend', echo);
}
