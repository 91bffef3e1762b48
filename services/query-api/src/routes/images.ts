/**
 * GET /api/images/{name}: stored images (team icons) from the media store, for anyone (the team
 * card and the statistics table show icons to visitors too). A name is the SHA-256 of the bytes,
 * so its content never changes: answered with a year of immutable caching, the hash as ETag, and
 * 304 Not Modified when If-None-Match carries it. Any other name: 404 NOT_FOUND.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { DomainError } from '@sinilill/domain';
import { isImageName, type MediaStore } from '@sinilill/media';
import { perAddress, routeFile, type Limit } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

/** Caching of a content-addressed image: a year, never revalidated (RFC 8246 immutable). */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * True when an If-None-Match header value names `etag` (weak comparison, RFC 9110 §13.1.2: `W/`
 * ignored; a list; `*` matches any existing resource).
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** The media store, and the reads per client address (docs/decisions/0108; none when absent). */
export const imageRoutes: FastifyPluginAsyncTypebox<{ media: MediaStore; limit?: Limit }> = async (app, { media, limit }) => {
  app.get('/images/:name', {
    config: perAddress('image', limit),
    // No response schema: the body is the image's bytes (errors go through the shared handler).
    schema: { params: Type.Object({ name: Type.String() }) },
  }, async (request, reply) => {
    const { name } = request.params;
    const image = isImageName(name) ? await media.get(name) : null;
    if (!image) throw new DomainError('NOT_FOUND', `image ${name}`);
    const etag = `"${name.slice(0, name.indexOf('.'))}"`;
    reply.header('cache-control', IMAGE_CACHE_CONTROL).header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type(image.contentType).header('x-content-type-options', 'nosniff').send(image.bytes);
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the media store. */
export default routeFile(imageRoutes, (deps: RouteDependencies) => (deps.media ? { media: deps.media, limit: deps.limits.images } : null));
