/**
 * Security headers: @fastify/helmet's set (nosniff, no framing, HSTS, the
 * cross-origin policies, no referrer, …) on every answer, and a content security policy per kind
 * of answer:
 *
 * - the web client's pages (the gateway: `siteSecurityHeaders`; nginx sets the same policy,
 *   infra/nginx/sinilill.conf, with a per-request nonce where the gateway uses hashes): scripts,
 *   styles, requests and fonts from the site's own origin only; the one inline script of the
 *   built index.html (Vite's start-texts preload, web/vite.config.ts) by its SHA-256, read from
 *   the file being served; pictures also from `data:` (icon previews, Vite's inlined SVGs) and any
 *   `https:` origin (the news' pictures from Strapi, the payment provider's bank logos); no
 *   plugins, no framing, no inline event handlers, forms posting to the site only;
 * - the APIs' answers (`apiSecurityHeaders`): JSON and files, which no browser renders as a
 *   page: `default-src 'none'`. An HTML page an API serves states its own policy (the payment
 *   sandbox's pages, the documentation UI: api-docs.ts); one that states none — the queue board,
 *   Bull Board's page — gets OPERATOR_PAGE_CSP, which lets it load what it is built to load.
 *
 * Through the gateway and nginx an API's answer keeps the API's headers: the proxies pass them on
 * over their own. tests/e2e/csp.e2e.test.ts visits every page in a browser and finds no violation.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/** A policy as directive → sources. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/** A policy as its header value (`name sources; name sources`). */
export function cspHeader(directives: CspDirectives): string {
  return Object.entries(directives).map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/**
 * The web client's policy (see the module's comment); `scriptSources` are the page's inline
 * scripts' sources (`'sha256-…'` hashes, or nginx's `'nonce-…'`).
 */
export function siteCspDirectives(scriptSources: readonly string[] = []): CspDirectives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scriptSources],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
  };
}

/** The APIs' policy for what they answer (JSON, files, streams): nothing to run, nothing to frame. */
export const API_CSP = cspHeader({
  'default-src': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"], 'frame-ancestors': ["'none'"],
});

/**
 * The policy of an HTML page an API serves without a policy of its own: the queue board (Bull
 * Board), whose page has inline styles and asks Google Fonts for its typefaces (in a closed
 * network they simply do not load). Administrators only.
 */
export const OPERATOR_PAGE_CSP = cspHeader({
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
});

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** The CSP sources (`'sha256-…'`) of the inline scripts of an HTML document (scripts with `src` have none). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1] ?? '')
    .filter((text) => text.trim() !== '')
    .map((text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
}

/**
 * The site's policy for the client in `webRoot`: recomputed when its index.html changes (looked
 * at no more than once a second), so a client rebuilt under a running gateway keeps working.
 */
function sitePolicyOf(webRoot: string): () => string {
  const indexFile = join(webRoot, 'index.html');
  let checkedAt = -Infinity;
  let modified: number | null = null;
  let policy = cspHeader(siteCspDirectives());
  return () => {
    const now = performance.now();
    if (now - checkedAt < 1000) return policy;
    checkedAt = now;
    let mtime: number | null = null;
    try {
      mtime = statSync(indexFile).mtimeMs;
    } catch {
      // No client built (the APIs' tests): no inline script to allow.
    }
    if (mtime !== modified) {
      modified = mtime;
      let hashes: string[] = [];
      try {
        hashes = mtime === null ? [] : inlineScriptHashes(readFileSync(indexFile, 'utf8'));
      } catch {
        // Replaced while being read: the next look reads it again.
        modified = null;
      }
      policy = cspHeader(siteCspDirectives(hashes));
    }
    return policy;
  };
}

/** Helmet's options here: its headers without its policy (each kind of answer gets its own, above), no framing at all. */
const HELMET_OPTIONS = { contentSecurityPolicy: false, frameguard: { action: 'deny' } } as const;

export interface SiteSecurityHeadersOptions {
  /** The built web client (its index.html's inline scripts are allowed by their hashes). */
  webRoot: string;
}

/** The gateway's headers: helmet's and the web client's policy (siteCspDirectives) on every answer it makes itself. */
export const siteSecurityHeaders = fp<SiteSecurityHeadersOptions>(async (app, options) => {
  await app.register(helmet, HELMET_OPTIONS);
  const policy = sitePolicyOf(options.webRoot);
  // Set before the answer (as helmet sets its headers), so that a proxied API answer's own replaces it.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('content-security-policy', policy());
    done();
  });
}, { name: 'site-security-headers' });

/**
 * The APIs' headers: helmet's, and API_CSP on every answer that states no policy of its own
 * (OPERATOR_PAGE_CSP for an HTML page that states none).
 */
export const apiSecurityHeaders = fp(async (app) => {
  await app.register(helmet, HELMET_OPTIONS);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('content-security-policy')) {
      const type = reply.getHeader('content-type');
      reply.header('content-security-policy', typeof type === 'string' && type.startsWith('text/html') ? OPERATOR_PAGE_CSP : API_CSP);
    }
    done(null, payload);
  });
}, { name: 'api-security-headers' });
