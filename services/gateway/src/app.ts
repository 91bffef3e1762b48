/**
 * The gateway: one origin for the browser. It serves the built web client (web/dist) and routes
 * /api by method: reads (GET, HEAD) to the query API, commands (POST, PUT, PATCH, DELETE) to the
 * command API. Unknown non-API paths get the client's index.html (client-side routing).
 * Production may put nginx or a load balancer here instead (infra/).
 */
import { existsSync } from 'node:fs';
import httpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';

export interface GatewayOptions {
  queryApiUrl: string;
  commandApiUrl: string;
  /** The built web client (index.html + assets). */
  webRoot: string;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the gateway (not listening yet). */
export function buildGateway(options: GatewayOptions): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 8 * 1024 * 1024 });
  app.register(httpProxy, {
    upstream: options.queryApiUrl, prefix: '/api', rewritePrefix: '/api', httpMethods: ['GET', 'HEAD'],
  });
  app.register(httpProxy, {
    upstream: options.commandApiUrl, prefix: '/api', rewritePrefix: '/api', httpMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  });
  const hasWeb = existsSync(options.webRoot);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: options.webRoot,
      wildcard: false,
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
    return reply.status(404).send({ message: 'NOT_FOUND' });
  });
  return app;
}
