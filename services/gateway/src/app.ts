/**
 * The gateway: one origin for the browser. It serves the built web client (web/dist) and routes
 * /api by method: reads (GET, HEAD) to the query API, commands (POST, PUT, PATCH, DELETE) to the
 * command API. One GET is a command (spec §7 GET /team/{id}/newcode draws a new join code) and goes
 * to the command API too; one POST is a read (POST /strapi/story, the news) and goes to the query
 * API; the payment provider's GETs go to the command API (EXCEPTIONS). The operators' replay and queue board (/api/admin/replay*, /api/admin/queues*) are
 * the command API's for every method. Unknown non-API paths get the client's index.html (client-side routing).
 *
 * Many processes of each kind: each kind's upstreams are a list
 * (COMMAND_API_URLS, QUERY_API_URLS), balanced round-robin; one that refuses a connection is passed
 * over for 2 s, and a request that failed before any answer goes to the next one when that cannot
 * do anything twice: reads, and commands with a usable Idempotency-Key (upstreams.ts).
 *
 * Development's front door: production runs nginx with infra/nginx/sinilill.conf,
 * which routes the same way. A proxy hop in Node (parsing the request, a second HTTP exchange with
 * the API, streaming the answer back) costs about as much CPU as the query API's cached answer
 * itself, so the gateway roughly halves a cached answer's throughput on this 2-core machine
 * (tests/bench/stats-peers.ts). Its own per-request work is kept small: no per-request log line
 * from the proxies ("fetching from remote server"; Fastify's own request lines are info, below
 * the gateway's warn level), keep-alive connections to the APIs (undici, up to 128 per API and
 * proxied route; the APIs announce a 72 s keep-alive).
 *
 * Health (the gateway's own, not proxied): GET /health/live answers 200 `{ live: true }`; GET
 * /health/ready 200 `{ ready: true }`, and once the gateway starts to close 503 (Fastify's own
 * answer while closing) or a refused connection. Readiness does not ask the APIs:
 * each API has its own probe, and a gateway taken out of rotation because an API is down
 * would turn a partial outage (reads without commands) into a whole one. GET /metrics (its own
 * too): request durations and, from server.ts, the process metrics.
 * Closing (`app.close()`, server.ts on SIGTERM): the proxied live streams (server-sent events)
 * are ended, the server stops accepting, and the proxied requests in flight finish.
 */
import { existsSync } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { IncomingHttpHeaders as Http2IncomingHttpHeaders } from 'node:http2';
import { Readable } from 'node:stream';
import httpProxy from '@fastify/http-proxy';
import type { FastifyReplyFromHooks } from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { ACTIVITY_FILE_BODY_LIMIT, PUBLIC_ATTRIBUTES_BODY_LIMIT } from '@sinilill/contracts';
import type { ErrorCode } from '@sinilill/domain';
import {
  CORRELATION_HEADER, DEFAULT_BODY_LIMIT, clientErrorHandler, correlationOptions, createMetricsRegistry, echoCorrelationId, errorAnswer,
  errorBody, frameworkErrors, healthRoutes, metricsPlugin, refuseExpectations, siteSecurityHeaders, statusOf, type Registry,
} from '@sinilill/http';
import { traceCarrier } from '@sinilill/telemetry';
import { UpstreamPool, mayResend, upstreamFailure } from './upstreams';

export interface GatewayOptions {
  /** The query API; or give `queryApiUrls`. */
  queryApiUrl?: string;
  /** The command API; or give `commandApiUrls`. */
  commandApiUrl?: string;
  /**
   * Several query APIs (QUERY_API_URLS), balanced round-robin (upstreams.ts);
   * used instead of `queryApiUrl` when given.
   */
  queryApiUrls?: readonly string[];
  /** Several command APIs (COMMAND_API_URLS), likewise; used instead of `commandApiUrl` when given. */
  commandApiUrls?: readonly string[];
  /** How long an upstream that refused a connection is passed over, ms (default UPSTREAM_DOWN_MS, 2 s). */
  upstreamDownMs?: number;
  /** The built web client (index.html + assets). */
  webRoot: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * The proxies in front of the gateway whose X-Forwarded-For it believes (Fastify's trustProxy;
   * config TRUST_PROXY, from server.ts): a TLS proxy or load balancer (Caddy, an ingress), so that
   * `request.ip`, which it forwards to the APIs, is the client's (docs/decisions/0024). Default: nobody — the
   * gateway is the edge, and a claimed address is never passed on.
   */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * The process's metrics registry, served at GET /metrics (the gateway's own,
   * never proxied) with the request durations (route: the proxy's pattern, e.g. `/api/*`).
   * Default: a registry of this app's own without the process metrics (tests).
   */
  metrics?: Registry;
}

/**
 * The paths that do not follow the method rule, and where they go:
 * - spec §7 GET /team/{id}/newcode draws a new join code: a command;
 * - the operators' replay and queue board live in the command API whatever the method (docs/decisions/0017): a
 *   replay job's state is in Redis, not in a read model, and the board is one app with its assets;
 * - spec §7 POST /strapi/story (the news page's stories) is a read: the query API;
 * - the payment reads that talk to the provider or record an outcome are the command API's
 *   (docs/decisions/0018): GET /payment/methods (asks the provider), GET /payment/return (the provider's
 *   returnUrl, records the outcome) and the sandbox's test bank (/payment/sandbox/*: checkout page,
 *   logos). GET /payment/info and /fundraising are read models: the query API;
 * - the command API's OpenAPI document, GET /api/docs/command.json; the rest of
 *   /api/docs (the UI, the query API's document) is the query API's, like every GET;
 * - Strava sync (docs/decisions/0095) lives in the command API: GET /api/me/strava (the connection,
 *   its tokens and proposals are in the account tables, not a read model), GET /api/strava/callback
 *   (Strava's OAuth redirect, records the connection) and GET /api/strava/webhook (the subscription's
 *   handshake).
 */
export const EXCEPTIONS: readonly { path: string; methods: readonly ('GET' | 'HEAD' | 'POST')[]; to: 'command' | 'query' }[] = [
  { path: '/api/team/:id/newcode', methods: ['GET'], to: 'command' },
  { path: '/api/admin/replay', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/admin/queues', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/strapi/story', methods: ['POST'], to: 'query' },
  { path: '/api/payment/methods', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/payment/return', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/payment/sandbox', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/docs/command.json', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/me/strava', methods: ['GET', 'HEAD'], to: 'command' },
  { path: '/api/strava', methods: ['GET', 'HEAD'], to: 'command' },
];

/** Routes whose bodies may exceed the APIs' default limit (a team icon as a data URL), and theirs. */
const LARGE_BODIES: readonly { method: string; path: RegExp; limit: number }[] = [
  { method: 'PUT', path: /^\/api\/team\/[^/]+\/publicattributes(?:\?|$)/, limit: PUBLIC_ATTRIBUTES_BODY_LIMIT },
  { method: 'PUT', path: /^\/api\/admin\/team\/[^/?]+(?:\?|$)/, limit: PUBLIC_ATTRIBUTES_BODY_LIMIT },
  // An activity file's raw bytes; the API names its own refusal ACTIVITY_FILE_TOO_LARGE.
  { method: 'POST', path: /^\/api\/team\/[^/]+\/activity-files(?:\?|$)/, limit: ACTIVITY_FILE_BODY_LIMIT },
];

/** The body limit the API behind `method url` enforces, bytes (413 at the gateway). */
export function bodyLimitOf(method: string, url: string): number {
  return LARGE_BODIES.find((route) => route.method === method && route.path.test(url))?.limit ?? DEFAULT_BODY_LIMIT;
}

/**
 * The headers a proxied request goes upstream with (docs/decisions/0024): the client's own headers, with
 * `X-Forwarded-For` set to the address the client connected from, and `X-Forwarded-Proto` and
 * `X-Forwarded-Host` to what the gateway saw. Whatever the client sent in these (or in `Forwarded`
 * and `X-Real-IP`) is dropped, not appended to: the gateway is the edge in this deployment, so an
 * address a client claims is never passed on. @fastify/reply-from copies the client's headers as
 * they are and adds none of these by itself. The APIs trust this header from the gateway's address
 * only (TRUSTED_PROXIES, @sinilill/http), so their `request.ip` is the client and the rate limits
 * count people, not the gateway. A load balancer or reverse proxy in front of the gateway would
 * make every client one address: the gateway then needs Fastify's `trustProxy` set to that
 * proxy's address (GatewayOptions.trustProxy, TRUST_PROXY), so that `request.ip` here is the
 * client again (the rightmost address the trusted proxies did not add: one claimed before them is
 * still dropped).
 */
export function forwardedHeaders(
  request: Pick<FastifyRequest, 'ip' | 'protocol' | 'host'>,
  headers: IncomingHttpHeaders | Http2IncomingHttpHeaders,
): IncomingHttpHeaders | Http2IncomingHttpHeaders {
  // Upgrade (with its Connection token) is dropped too: the proxy's HTTP client refuses any
  // request that carries one (`curl --http2` sends `Upgrade: h2c`), which answered 503
  // (found by the fuzz suite); the APIs speak plain HTTP/1.1 and upgrade nothing. Expect likewise:
  // undici refuses `Expect: 100-continue` (what curl sends with a body over 1 MB), which answered
  // 503; Node's server here has already answered the client 100 Continue (no 'checkContinue'
  // listener), so the body is on its way and the upstream needs no such question.
  const { forwarded: _forwarded, 'x-real-ip': _realIp, upgrade: _upgrade, connection: _connection, expect: _expect, ...rest } = headers;
  return { ...rest, 'x-forwarded-for': request.ip, 'x-forwarded-proto': request.protocol, 'x-forwarded-host': request.host };
}

/** The socket errors of an upstream that stopped reading a request body mid-stream. */
const BROKEN_PIPE_CODES: readonly string[] = ['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH'];

/** The `code` of an error and of each error in its `cause` chain (at most 5 deep), outermost first. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/** An error answer of the gateway's own: the catalogue code and its status, nothing internal. */
function refuse(reply: FastifyReply, code: ErrorCode, headers: Record<string, string> = {}) {
  return reply.status(statusOf(code)).headers(headers).send(errorBody(code));
}

/** Builds the gateway (not listening yet). */
export function buildGateway(options: GatewayOptions): FastifyInstance {
  // The proxies stream request bodies to the upstream unread, so this limit does not bind them:
  // each API enforces its own (16 MiB for PUT /team/{id}/publicattributes, 1 MiB elsewhere).
  // The protocol-level refusals (Node's parser, the router, Expect) answer with a catalogue code,
  // as the APIs' do (@sinilill/http), and so does every error of the gateway's own.
  // The request's correlation id as the APIs make it: request.id, logged as
  // `correlationId`, echoed, and passed on to the API (rewriteRequestHeaders below).
  const app = Fastify({
    logger: options.logger ?? false, bodyLimit: 8 * 1024 * 1024, clientErrorHandler, frameworkErrors, ...correlationOptions(),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  });
  refuseExpectations(app.server);
  echoCorrelationId(app);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, code } = errorAnswer(error);
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    return reply.status(status).send(errorBody(code));
  });
  // The health routes and the `Connection: close` while closing (@sinilill/http, shared with the APIs).
  app.register(healthRoutes);
  // Helmet's headers and the web client's content security policy; a proxied
  // API answer keeps the API's own.
  app.register(siteSecurityHeaders, { webRoot: options.webRoot });
  app.register(metricsPlugin, { registry: options.metrics ?? createMetricsRegistry('gateway', { defaultMetrics: false }) });
  // A proxied live stream lasts as long as the page is open: it would hold close() until the
  // bound. Each is followed from the moment the upstream's answer is sent on, and ended in
  // preClose: unpiped, then ended cleanly (the browser's EventSource reconnects); ending the
  // response makes Fastify destroy the upstream body, which closes the upstream request too.
  const streams = new Map<ServerResponse, Readable>();
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/event-stream') && isReadable(payload)) {
      const res = reply.raw;
      streams.set(res, payload);
      res.once('close', () => streams.delete(res));
    }
    return payload;
  });
  app.addHook('preClose', async () => {
    for (const [res, body] of streams) {
      body.unpipe(res);
      res.end();
    }
  });
  // A body over the API's limit is refused here, before a byte is forwarded: streamed on, the API
  // would answer 413 and close mid-body, and the proxy would see a broken pipe.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > bodyLimitOf(request.method, request.url)) {
      request.log.info({ length, url: request.url }, 'request body over the limit');
      return refuse(reply, 'REQUEST_TOO_LARGE', { connection: 'close' });
    }
  });
  // An upstream that is down or restarting (the launcher restarts a crashed service) is answered
  // 503 with a catalogue code; the internal address and the error stay in the log.
  // Every proxied request carries its client's address (forwardedHeaders, docs/decisions/0024).
  const replyOptions: FastifyReplyFromHooks = {
    // The API takes the gateway's correlation id as its own; the trace context goes on in
    // `traceparent` (the proxy's HTTP client, undici, is not instrumented).
    rewriteRequestHeaders: (request, headers) => ({ ...forwardedHeaders(request, headers), [CORRELATION_HEADER]: request.id, ...traceCarrier() }),
    onError: (reply, { error }) => {
      if (reply.sent) return;
      // A chunked body (no Content-Length to judge beforehand) that the API cut off mid-stream:
      // it refused the body as too large (413) and closed, and the proxy saw the pipe break. A
      // down upstream fails at connect instead (ECONNREFUSED), answered 503 below
      // (counting the bytes here would take the stream from the proxy).
      // reply-from wraps the socket's error (FST_REPLY_FROM_INTERNAL_SERVER_ERROR, the EPIPE as
      // its cause): the whole cause chain is looked at (CI caught a 503 for a 2 MiB chunked body).
      const headers = reply.request.headers;
      if (headers['content-length'] === undefined && headers['transfer-encoding'] !== undefined
        && errorCodes(error).some((code) => BROKEN_PIPE_CODES.includes(code))) {
        void refuse(reply as FastifyReply, 'REQUEST_TOO_LARGE', { connection: 'close' });
        return;
      }
      reply.log.warn({ err: error, url: reply.request.url }, 'upstream unavailable');
      void refuse(reply as FastifyReply, 'SERVICE_UNAVAILABLE', { 'retry-after': '2' });
    },
  };
  // The upstreams: a list of each kind, balanced (upstreams.ts). A command that
  // may be resent (a usable Idempotency-Key) has its body read whole first, so it can be.
  const upstreams = {
    query: new UpstreamPool(upstreamList(options.queryApiUrls, options.queryApiUrl, 'query'), { downMs: options.upstreamDownMs }),
    command: new UpstreamPool(upstreamList(options.commandApiUrls, options.commandApiUrl, 'command'), { downMs: options.upstreamDownMs }),
  };
  app.addHook('preHandler', readResendableBody);
  // The upstream connections: undici's (reply-from's default client, an Agent keeping a pool per
  // upstream), kept alive. `upstream: ''`: each request's upstream is picked by getUpstream.
  const proxying = (to: 'command' | 'query') => ({
    upstream: '',
    replyOptions: { ...replyOptions, getUpstream: () => upstreams[to].next() },
    handler: balancedHandler(upstreams[to], replyOptions),
    disableRequestLogging: true,
    undici: { connections: 128, pipelining: 1 },
  });
  app.register(httpProxy, { prefix: '/api', rewritePrefix: '/api', httpMethods: ['GET', 'HEAD'], ...proxying('query') });
  app.register(httpProxy, { prefix: '/api', rewritePrefix: '/api', httpMethods: ['POST', 'PUT', 'PATCH', 'DELETE'], ...proxying('command') });
  for (const route of EXCEPTIONS) {
    // More specific than /api/*, so the router prefers these paths for these methods.
    app.register(httpProxy, { prefix: route.path, rewritePrefix: route.path, httpMethods: [...route.methods], ...proxying(route.to) });
  }
  const hasWeb = existsSync(options.webRoot);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: options.webRoot,
      wildcard: false,
      // Cache-Control is setHeaders' alone (send's default, `public, max-age=0`, would replace it):
      // the service worker (sw.js) and the manifests must be asked for again each time.
      cacheControl: false,
      setHeaders(res, path) {
        // Hashed asset names never change content: cache them for a year; index.html never.
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api') && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('NOT_FOUND'));
  });
  return app;
}

/** The upstream list of one kind: the list when given, else the single URL. @throws Error when neither is. */
function upstreamList(urls: readonly string[] | undefined, url: string | undefined, kind: string): readonly string[] {
  if (urls && urls.length > 0) return urls;
  if (url) return [url];
  throw new Error(`buildGateway: no ${kind} API (${kind}ApiUrl or ${kind}ApiUrls)`);
}

/** Bodies read whole so that their request can be resent (readResendableBody), by request. */
const resendableBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * preHandler: a command that may be resent (mayResend: a usable Idempotency-Key) has its body
 * read into memory, up to the API's limit (else 413 REQUEST_TOO_LARGE here, as the API would
 * answer), so that the proxy can send it to another command API if the first fails. Other bodies
 * are streamed through unread.
 */
async function readResendableBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD' || !mayResend(request.method, request.headers)) return;
  const body = request.body;
  if (!(body instanceof Readable)) return;
  const kept = await readUpTo(body, bodyLimitOf(request.method, request.url));
  if (kept === null) {
    await refuse(reply, 'REQUEST_TOO_LARGE', { connection: 'close' });
    return;
  }
  resendableBodies.set(request, kept);
}

/**
 * The whole of `body` when it ends within `limit` bytes; null when it grows past the limit (left
 * paused, unread: the answer closes the connection, as the onRequest refusal does) or the client
 * goes away first. The socket is not destroyed, so the refusal can still be sent.
 */
function readUpTo(body: Readable, limit: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: Buffer | null) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      body.off('error', onClose);
      // A body left unread errors when its client goes: that must not be an uncaught 'error'.
      if (value === null) body.on('error', () => undefined);
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        body.pause();
        finish(null);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onClose = () => finish(null);
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('close', onClose);
    body.once('error', onClose);
  });
}

/**
 * The proxies' handler over a list of upstreams: sends the request to the
 * upstream getUpstream picked; when that fails before any answer came, marks an unreachable
 * upstream down and, if the request may be resent (a read, or a command with a usable
 * Idempotency-Key, whose body readResendableBody kept), sends it to the next upstream not yet
 * tried. Anything else fails (`base.onError`: 503, or 413 for a cut-off body).
 */
function balancedHandler(pool: UpstreamPool, base: FastifyReplyFromHooks) {
  return (request: FastifyRequest, reply: FastifyReply, dest: string, options: FastifyReplyFromHooks): FastifyReply => {
    const tried = new Set<string>();
    const send = (upstream: string): void => {
      tried.add(upstream);
      const kept = resendableBodies.get(request);
      // A fresh stream of the kept bytes for each attempt (reply-from streams request.body on).
      if (kept) request.body = Readable.from([kept], { objectMode: false });
      reply.from(dest, {
        ...options,
        getUpstream: () => upstream,
        onError: (failed, details) => {
          const failure = failed.sent ? null : upstreamFailure(errorCodes(details.error));
          if (failure === 'unreachable') pool.markDown(upstream);
          const next = failure && mayResend(request.method, request.headers) ? pool.pick(tried) : undefined;
          if (next !== undefined) {
            request.log.warn({ upstream, next, failure, url: request.url }, 'upstream failed; sending the request to the next');
            send(next);
            return;
          }
          base.onError?.(failed, details);
        },
      });
    };
    send(options.getUpstream?.(request, '') ?? pool.next());
    return reply;
  };
}

function isReadable(payload: unknown): payload is Readable {
  return typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function'
    && typeof (payload as Readable).unpipe === 'function';
}
