/**
 * Public answers cached by position: an answer that is the same for every
 * visitor (GET /api/stats, GET /api/settings) is computed and serialised once per state of the
 * read models it reads, kept in memory with its ETag and its compressed forms, and served from
 * there until a projection it reads moves on.
 *
 * - Key: the caller's (route, parameters, and whatever else the bytes depend on: the local day
 *   for the stats' dailyDistance, the entry window for the settings' entriesOpen).
 * - Valid for: the known checkpoints of the projections the route reads (its route config
 *   `reads`) and the positions' generation (live.ts ProjectionPositions: the process's one LISTEN
 *   on `rm_changes`, docs/decisions/0013). A notification of a newer checkpoint of one of them, a rebuild's swap
 *   or a reconnection of the listener makes the entry stale; the next request recomputes it.
 *   Labelled with the positions known before the read models are queried, an entry may hold
 *   newer rows than its label says, never older ones. While the positions are not current (no
 *   listener, or one that is reconnecting), nothing is cached: every request computes its answer.
 * - ETag: a weak validator (`W/"<22 characters of base64url SHA-256 of the JSON bytes>"`), the
 *   same for the identity, gzip and br forms (weak comparison, RFC 9110 §8.8.1), so it changes
 *   exactly when the bytes do, and is the same on every query-API process. `If-None-Match`
 *   matching it answers 304 with no body. `Cache-Control: public, no-cache` (a browser keeps the
 *   answer and revalidates it), `Vary: Accept-Encoding`.
 * - Compression: by `Accept-Encoding` (br preferred over gzip at equal weight; q=0 refuses),
 *   answers of at least `threshold` bytes; each form is compressed once per entry, on its first
 *   request, off the event loop (zlib's thread pool), then served as stored bytes.
 * - Memory: at most `maxBytes` (identity and compressed forms together) and `maxEntries`
 *   entries, least recently used first out. An answer larger than `maxBytes` is served, not kept.
 * - Concurrency: the requests that miss one key at one label share one computation.
 *
 * Personal answers (a member's team page, the administrators' tables) never go through here.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectionPositions } from './live';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The projections (their names: `teamStatsProjection.name`…) whose read models the route
     * reads: what a request with `x-min-position` waits for and what a cached
     * answer is valid for. `[]`: the route reads nothing projected and never waits. Routes that
     * declare nothing read (and wait for) every projection.
     */
    reads?: readonly string[];
  }
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The content codings served from the cache, in order of preference at equal weight. */
export const CACHED_ENCODINGS = ['br', 'gzip'] as const;
export type CachedEncoding = (typeof CACHED_ENCODINGS)[number];

export interface AnswerCacheOptions {
  /** The process's positions (its ReadModelChangeListener); without them nothing is cached. */
  positions?: ProjectionPositions;
  /** Bytes kept at most, all entries and their forms together; default 16 MiB. */
  maxBytes?: number;
  /** Entries kept at most; default 1000. */
  maxEntries?: number;
  /** Smallest answer compressed, bytes; default 1024 (as @fastify/compress). */
  threshold?: number;
}

interface Entry {
  key: string;
  /** The generation and positions it was computed under; null: not cacheable (positions not current). */
  label: string | null;
  etag: string;
  contentType: string;
  identity: Buffer;
  /** Compressed forms, made on first request. */
  encoded: Map<CachedEncoding, Promise<Buffer>>;
  bytes: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The entity tag of `bytes`: weak, 128 bits of SHA-256 in base64url. */
export function entityTag(bytes: Buffer): string {
  return `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether an `If-None-Match` header value matches `etag` by weak comparison (RFC 9110 §13.1.2):
 * `*`, or one of its comma-separated tags equal to `etag` once `W/` is set aside. An absent or
 * malformed header matches nothing (the full answer is sent).
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  for (const value of Array.isArray(header) ? header : [header]) {
    for (const part of value.split(',')) {
      const tag = part.trim();
      if (tag === '*' || tag.replace(/^W\//, '') === opaque) return true;
    }
  }
  return false;
}

/**
 * The content coding to answer with, from an `Accept-Encoding` header (RFC 9110 §12.5.3): the
 * acceptable one of br and gzip with the highest weight (br on a tie; `*` stands for those not
 * named; q=0 refuses), or null for identity (no header, none acceptable, or `identity` alone).
 */
export function negotiateEncoding(header: string | string[] | undefined): CachedEncoding | null {
  if (header === undefined) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split('=');
      if (name === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    weights.set(token, q);
  }
  let best: CachedEncoding | null = null;
  let bestWeight = 0;
  for (const encoding of CACHED_ENCODINGS) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Compresses `bytes` with `encoding`: br at quality 6 (a 25 KB answer in ~3 ms), gzip at level 9. */
function compress(bytes: Buffer, encoding: CachedEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliCompress(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
}

/** The answer cache of one query-API process (see the module's comment). */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly positions: ProjectionPositions | undefined;
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  private readonly threshold: number;
  private bytes = 0;

  constructor(options: AnswerCacheOptions = {}) {
    this.positions = options.positions;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxEntries = options.maxEntries ?? 1000;
    this.threshold = options.threshold ?? 1024;
  }

  /**
   * Answers `request` with the cached answer of `key`, or with `compute()`'s answer serialised by
   * the route's response schema (status 200), cached for the positions of the projections the
   * route reads (its config `reads`, which buildQueryApi always fills in). Sets ETag, Cache-Control, Vary
   * and Content-Encoding; answers 304 when If-None-Match matches.
   * @returns the reply, sent (return it from the handler).
   * @throws what `compute` throws (a DomainError answers its catalogue code; nothing is cached).
   */
  async serve(request: FastifyRequest, reply: FastifyReply, key: string, compute: () => Promise<unknown>): Promise<FastifyReply> {
    const label = this.labelFor(request.routeOptions.config.reads);
    const entry = (label === null ? undefined : this.lookup(key, label))
      ?? await this.build(key, label, reply, compute, request.routeOptions.config.reads);
    return this.send(request, reply, entry);
  }

  /** The state an answer computed now would reflect, or null when it cannot be known (nothing is then cached). */
  private labelFor(reads: readonly string[] | undefined): string | null {
    const positions = this.positions;
    if (!positions?.current || reads === undefined) return null;
    return `${positions.generation}:${reads.map((name) => positions.position(name)).join(',')}`;
  }

  /** The current entry of `key` at `label`, made most recently used; undefined when there is none. */
  private lookup(key: string, label: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.label !== label) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private build(
    key: string, label: string | null, reply: FastifyReply, compute: () => Promise<unknown>, reads: readonly string[] | undefined,
  ): Promise<Entry> {
    if (label === null) return this.computeEntry(key, null, reply, compute);
    const id = `${label}\u0000${key}`;
    let shared = this.pending.get(id);
    if (!shared) {
      shared = this.computeEntry(key, label, reply, compute).then((entry) => {
        // Kept only if no projection it reads moved on meanwhile: else it is served to the
        // requests that waited for it, and the next request computes the current one.
        if (entry.label === this.labelFor(reads)) this.store(entry);
        return entry;
      }).finally(() => this.pending.delete(id));
      this.pending.set(id, shared);
    }
    return shared;
  }

  private async computeEntry(key: string, label: string | null, reply: FastifyReply, compute: () => Promise<unknown>): Promise<Entry> {
    const answer = await compute();
    // The route's own response serialiser (its 200 schema), as Fastify would have used.
    const identity = Buffer.from(reply.serialize(answer) as string);
    return { key, label, etag: entityTag(identity), contentType: JSON_TYPE, identity, encoded: new Map(), bytes: identity.length };
  }

  /** Keeps `entry` (current: replacing the key's stale one), then evicts the least recently used beyond the bounds. */
  private store(entry: Entry): void {
    const old = this.entries.get(entry.key);
    if (old) {
      this.entries.delete(entry.key);
      this.bytes -= old.bytes;
    }
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    this.evict();
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  /** The compressed form of `entry`, made once (and counted in the cache's bytes while the entry is kept). */
  private encodedForm(entry: Entry, encoding: CachedEncoding): Promise<Buffer> {
    let form = entry.encoded.get(encoding);
    if (!form) {
      form = compress(entry.identity, encoding);
      entry.encoded.set(encoding, form);
      void form.then((bytes) => {
        entry.bytes += bytes.length;
        if (this.entries.get(entry.key) === entry) {
          this.bytes += bytes.length;
          this.evict();
        }
      }, () => entry.encoded.delete(encoding));
    }
    return form;
  }

  private async send(request: FastifyRequest, reply: FastifyReply, entry: Entry): Promise<FastifyReply> {
    reply.header('etag', entry.etag).header('cache-control', 'public, no-cache').header('vary', 'accept-encoding');
    if (ifNoneMatchMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    reply.header('content-type', entry.contentType);
    const encoding = entry.identity.length >= this.threshold ? negotiateEncoding(request.headers['accept-encoding']) : null;
    if (encoding === null) return reply.send(entry.identity);
    const bytes = await this.encodedForm(entry, encoding);
    // Set, so @fastify/compress leaves the bytes as they are.
    return reply.header('content-encoding', encoding).send(bytes);
  }
}
