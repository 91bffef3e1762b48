/**
 * The Fastify app both APIs start from: strict TypeBox validation (no coercion, unknown fields
 * refused, never silently dropped; text checked for NUL, lone surrogates and control characters,
 * INVALID_CHARACTERS), one error handler that answers `{ message: CODE }` with a
 * catalogue code (spec §7, §8) and hides the details of anything unexpected — the refusals of
 * Node's HTTP parser and Fastify's router included (clientErrorHandler, frameworkErrors,
 * refuseExpectations: for any Fastify server, the gateway's too) — and the not-found answer.
 */
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { DomainError, type ErrorCode } from '@sinilill/domain';
import { SAFE_TEXT_PATTERNS, findUnsafeText } from '@sinilill/contracts';
import { correlationOptions, echoCorrelationId } from './correlation';

/** HTTP status of each catalogue code; codes not listed answer 400. */
const STATUS: Partial<Record<ErrorCode, number>> = {
  GENERIC_ERROR: 500,
  INVALID_CREDENTIALS: 401,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  USER_NOT_APPROVED: 403,
  NOT_FOUND: 404,
  CONCURRENCY_CONFLICT: 409,
  ALREADY_EXISTS: 409,
  FIELD_MISMATCH: 409,
  EMAIL_ALREADY_IN_USE: 409,
  TEAM_NAME_ALREADY_IN_USE: 409,
  ORDER_NOT_PAID: 409,
  INVALID_CHARACTERS: 400,
  PASSWORD_TOO_WEAK: 400,
  INVALID_AMOUNT: 400,
  REFUND_EXCEEDS_PAYMENT: 400,
  MAX_IMAGE_SIZE: 413,
  REQUEST_TOO_LARGE: 413,
  IDEMPOTENCY_KEY_REUSED: 422,
  TOO_MANY_REQUESTS: 429,
  NEWS_UNAVAILABLE: 502,
  PAYMENT_PROVIDER_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  ACTIVITY_FILE_NOT_SUPPORTED: 415,
  ACTIVITY_FILE_UNREADABLE: 400,
  ACTIVITY_FILE_EMPTY: 400,
  ACTIVITY_FILE_IS_ROUTE: 400,
  ACTIVITY_FILE_TOO_LARGE: 413,
  ACTIVITY_FILE_ALREADY_USED: 409,
  CERTIFICATE_NOT_AVAILABLE_YET: 409,
  CERTIFICATE_NOT_VALID: 404,
  ENTRY_NOT_UNDER_REVIEW: 409,
  DRAW_ALREADY_COMMITTED: 409,
  DRAW_NOT_COMMITTED: 409,
  DRAW_SEED_MISMATCH: 400,
  DRAW_NOT_YET_ALLOWED: 409,
  DRAW_ALREADY_DONE: 409,
  INVALID_UNSUBSCRIBE_LINK: 400,
  EDITION_DATES_OVERLAP: 409,
  EDITION_EXISTS: 409,
  EDITION_CLOSED: 409,
  EDITION_NOT_OPENED: 409,
  EDITION_NOT_FINISHED: 409,
  REGISTRATION_NOT_OPEN: 409,
  STRAVA_NOT_CONFIGURED: 404,
  STRAVA_NOT_CONNECTED: 409,
  STRAVA_STATE_INVALID: 400,
  STRAVA_UNAVAILABLE: 502,
  STRAVA_ACTIVITY_OUTSIDE_EDITION: 409,
  STRAVA_ACTIVITY_WITHOUT_DISTANCE: 409,
};

/** The HTTP status a catalogue code is answered with. */
export function statusOf(code: ErrorCode): number {
  return STATUS[code] ?? 400;
}

/**
 * Body of every error answer: `{ message: CODE }`, plus `field` (the field's name, e.g. 'team_id')
 * for FIELD_MISMATCH, and the JSON path of the broken field for the EDITION_* codes.
 */
export function errorBody(code: ErrorCode, field?: string): { message: ErrorCode; field?: string } {
  return field === undefined ? { message: code } : { message: code, field };
}

/**
 * True when a validation failure is a safe-text pattern refusing a string (contracts' SingleLine
 * and MultiLine): the answer is then INVALID_CHARACTERS rather than INVALID_REQUEST.
 */
function refusesCharacters(validation: FastifyError['validation']): boolean {
  return (validation ?? []).some((failure) => failure.keyword === 'pattern'
    && SAFE_TEXT_PATTERNS.includes(String((failure.params as { pattern?: unknown } | undefined)?.pattern)));
}

/** The request parts a client writes freely (headers are checked by Node's parser and by their readers). */
const CHECKED_PARTS = ['params', 'query', 'body'] as const;

/**
 * True for the errors of a database that is down, restarting or unreachable: refused
 * or broken connections, PostgreSQL's shutdown and cannot-connect-now states (57P01-57P03) and
 * its connection-exception class (08). They are answered 503 SERVICE_UNAVAILABLE, not 500: the
 * request may be retried once the database is back (nothing of it was committed).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(error.message);
}

/**
 * The status and catalogue code an error is answered with: the rule of createApp's error handler
 * and frameworkErrors, and of the gateway's own handler. 5xx only for the unexpected.
 */
export function errorAnswer(error: FastifyError | DomainError | Error): { status: number; code: ErrorCode } {
  if (error instanceof DomainError) return { status: statusOf(error.code), code: error.code };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return { status: 400, code: refusesCharacters(fastifyError.validation) ? 'INVALID_CHARACTERS' : 'INVALID_REQUEST' };
  const code = fastifyError.code ?? '';
  if (code.startsWith('FST_JWT') || code === 'FST_ERR_AUTH') return { status: 401, code: 'UNAUTHORIZED' };
  if (isDatabaseUnavailable(error)) return { status: 503, code: 'SERVICE_UNAVAILABLE' };
  const status = fastifyError.statusCode ?? 500;
  if (status === 401) return { status, code: 'UNAUTHORIZED' };
  if (status === 403) return { status, code: 'FORBIDDEN' };
  if (status === 404) return { status, code: 'NOT_FOUND' };
  if (status === 429) return { status, code: 'TOO_MANY_REQUESTS' };
  if (status === 413) return { status, code: 'REQUEST_TOO_LARGE' };
  // Body parser errors (bad JSON, wrong content type, too large) are the caller's: 4xx.
  if (status >= 400 && status < 500) return { status, code: 'INVALID_REQUEST' };
  return { status: 500, code: 'GENERIC_ERROR' };
}

/**
 * Fastify's `clientErrorHandler` answering a request Node's HTTP parser refuses — a control
 * character in a header, a malformed request line, headers over the size limit, a request that
 * took too long — with `{ message: CODE }` like every other refusal (431 REQUEST_TOO_LARGE, else
 * 400 or 408 INVALID_REQUEST), where Fastify's default writes `{ error, message: 'Client Error',
 * statusCode }` (found by the fuzz suite); then the connection closes, as by default.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody(status === 431 ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST'));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (a broken %-escape: 400) or a path
 * parameter over the router's length limit (414), answered INVALID_REQUEST through the shared
 * classification instead of Fastify's `{ error, code, message, statusCode }`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, code } = errorAnswer(error);
  if (status >= 500) request.log.error({ err: error }, 'unexpected error');
  else request.log.info({ code, detail: error.message }, 'request refused');
  void reply.status(status).send(errorBody(code));
}

/**
 * Answers an `Expect` header other than `100-continue` 417 with `{ message: 'INVALID_REQUEST' }`
 * (Node answers a bare 417 by itself when nobody listens to 'checkExpectation').
 */
export function refuseExpectations(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(errorBody('INVALID_REQUEST'));
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
}

/**
 * The peers whose `X-Forwarded-For` the APIs believe (Fastify's trustProxy, docs/decisions/0024): the
 * loopback addresses the gateway connects from (IPv4-mapped forms included). The gateway is the
 * edge and overwrites the header with its client's address, so `request.ip` is the client. A
 * client that talks to an API directly from any other address keeps its own address, whatever
 * header it sends. A gateway on another host needs its address here (createApp's `trustProxy`).
 */
export const TRUSTED_PROXIES: readonly string[] = ['127.0.0.1', '::1'];

/**
 * A Fastify instance with the shared validation, error handling and not-found answer.
 * Routes use TypeBox schemas; path parameters are strings with a digit pattern (no coercion).
 * `request.ip` is the client's address as the gateway forwards it (TRUSTED_PROXIES; an explicit
 * `trustProxy` option replaces them). `request.id` is the request's correlation id, logged as
 * `correlationId` and echoed in `x-correlation-id` (correlation.ts).
 */
export function createApp(options: FastifyServerOptions = {}): FastifyInstance {
  const app = Fastify({
    bodyLimit: DEFAULT_BODY_LIMIT, trustProxy: [...TRUSTED_PROXIES], clientErrorHandler, frameworkErrors, ...correlationOptions(), ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  refuseExpectations(app.server);
  // The correlation id: request.id, `correlationId` in the log, echoed.
  echoCorrelationId(app as unknown as FastifyInstance);
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // no string holding NUL, a lone surrogate or a control character other than tab and
  // line breaks gets past the boundary, whether or not its route declares a schema for it (the
  // schemas' SingleLine also refuses tab and line breaks). Answered here rather than thrown, so
  // that plugins with error handlers of their own (the queue board) answer it the same way.
  app.addHook('preValidation', async (request, reply) => {
    for (const part of CHECKED_PARTS) {
      const path = findUnsafeText(request[part]);
      if (path === null) continue;
      request.log.info({ code: 'INVALID_CHARACTERS', detail: `${part}${path}` }, 'request refused');
      return reply.status(400).send(errorBody('INVALID_CHARACTERS'));
    }
    return undefined;
  });
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    const { status, code } = errorAnswer(error);
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    else request.log.info({ code, detail: error.message }, 'request refused');
    // FIELD_MISMATCH and the edition codes name the field that broke the rule (edition/validate.ts).
    const field = error instanceof DomainError && (error.code === 'FIELD_MISMATCH' || error.code.startsWith('EDITION_')) ? error.detail : undefined;
    return reply.status(status).send(errorBody(code, field));
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody('NOT_FOUND')));
  return app as unknown as FastifyInstance;
}

/** The APIs' body limit, bytes, where a route sets none (PUT /team/{id}/publicattributes: 16 MiB). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Path parameter schema for an integer id (string of digits; parse with Number): 1 to 999 999 999,
 * inside PostgreSQL's `integer` (ids ≥ 2 147 483 648 would fail in SQL with a 500); longer ids
 * are refused as INVALID_REQUEST.
 */
export const ID_PATTERN = '^[1-9][0-9]{0,8}$';

/**
 * A usable Idempotency-Key header value (docs/decisions/0007): the command API makes the command id of it; any
 * other value is ignored there (the request is a new command each time it arrives). The gateway
 * resends a command to another command API only when its key matches.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;
