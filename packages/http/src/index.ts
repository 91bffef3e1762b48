/**
 * Fastify pieces both APIs share: strict TypeBox validation (no coercion, unknown fields
 * refused, never silently dropped; text checked for NUL, lone surrogates and control characters,
 * INVALID_CHARACTERS, issue 13), one error handler that answers `{ message: CODE }` with a
 * catalogue code (spec §7, §8) and hides the details of anything unexpected, the not-found
 * answer, the health routes (health.ts) and the graceful shutdown on signals (shutdown.ts).
 */
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { DomainError, type ErrorCode } from '@sinilill/domain';
import { SAFE_TEXT_PATTERNS, findUnsafeText } from '@sinilill/contracts';

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
  EMAIL_ALREADY_IN_USE: 409,
  TEAM_NAME_ALREADY_IN_USE: 409,
  INVALID_CHARACTERS: 400,
  MAX_IMAGE_SIZE: 413,
  REQUEST_TOO_LARGE: 413,
  IDEMPOTENCY_KEY_REUSED: 422,
  TOO_MANY_REQUESTS: 429,
  NEWS_UNAVAILABLE: 502,
  PAYMENT_PROVIDER_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
};

/** The HTTP status a catalogue code is answered with. */
export function statusOf(code: ErrorCode): number {
  return STATUS[code] ?? 400;
}

/** Body of every error answer. */
export function errorBody(code: ErrorCode): { message: ErrorCode } {
  return { message: code };
}

/**
 * True when a validation failure is a safe-text pattern refusing a string (contracts' SingleLine
 * and MultiLine, issue 13): the answer is then INVALID_CHARACTERS rather than INVALID_REQUEST.
 */
function refusesCharacters(validation: FastifyError['validation']): boolean {
  return (validation ?? []).some((failure) => failure.keyword === 'pattern'
    && SAFE_TEXT_PATTERNS.includes(String((failure.params as { pattern?: unknown } | undefined)?.pattern)));
}

/** The request parts a client writes freely (headers are checked by Node's parser and by their readers). */
const CHECKED_PARTS = ['params', 'query', 'body'] as const;

/**
 * True for the errors of a database that is down, restarting or unreachable (issue 13): refused
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

function classify(error: FastifyError | DomainError | Error): { status: number; code: ErrorCode } {
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
 * A Fastify instance with the shared validation, error handling and not-found answer.
 * Routes use TypeBox schemas; path parameters are strings with a digit pattern (no coercion).
 */
export function createApp(options: FastifyServerOptions = {}): FastifyInstance {
  const app = Fastify({ bodyLimit: DEFAULT_BODY_LIMIT, ...options }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // Issue 13: no string holding NUL, a lone surrogate or a control character other than tab and
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
    const { status, code } = classify(error);
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    else request.log.info({ code, detail: error.message }, 'request refused');
    return reply.status(status).send(errorBody(code));
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody('NOT_FOUND')));
  return app as unknown as FastifyInstance;
}

/** The APIs' body limit, bytes, where a route sets none (PUT /team/{id}/publicattributes: 16 MiB). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Path parameter schema for an integer id (string of digits; parse with Number): 1 to 999 999 999,
 * inside PostgreSQL's `integer` (ids ≥ 2 147 483 648 answered 500 before, issue 13); longer ids
 * are refused as INVALID_REQUEST.
 */
export const ID_PATTERN = '^[1-9][0-9]{0,8}$';

export { authPlugin, requireAdmin, type AuthOptions } from './auth';
export { healthRoutes, type Readiness } from './health';
export { earlyLog, type EarlyLog } from './early-log';
export { installGracefulShutdown, installShutdown, SHUTDOWN_DELAY_MS, type Shutdown, type ShutdownLog, type ShutdownOptions } from './shutdown';
