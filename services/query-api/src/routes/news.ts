/**
 * POST /api/strapi/story {locale} (spec §7): the news page's stories, newest first. A read,
 * though a POST (the path and method are the spec's); the gateway sends it here, not to the
 * command API. Public. The locale may be et/en or the stored est/eng (spec §1); anything else
 * answers 400 INVALID_REQUEST. When the source fails (Strapi down, slow, or answering nonsense),
 * 502 NEWS_UNAVAILABLE.
 *
 * A story is served from its `publishedAt` on, by the app's clock (`now`; the simulated clock in
 * tests and demos): content written ahead ("the final results are in") stays out until its time,
 * and a story whose time cannot be read is not served (when it may appear is unknown).
 */
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { repoRoot } from '@sinilill/config';
import { NewsAnswer, NewsRequest, newsContentLocale } from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import { cachedSource, localSource, strapiSource, type NewsOptions, type NewsSource } from '../news-source';
import { perAddress, routeFile, type Limit } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

export type { NewsOptions } from '../news-source';

/** The stories of `answer` published at or before `now` (their order kept: newest first). */
export function publishedBy(answer: NewsAnswer, now: Date): NewsAnswer {
  const limit = now.getTime();
  return { ...answer, stories: answer.stories.filter((story) => Date.parse(story.publishedAt) <= limit) };
}

/** The stories' source the options describe. */
export function newsSource(options: NewsOptions): NewsSource {
  if (options.strapiUrl) {
    const source = strapiSource({ url: options.strapiUrl, token: options.strapiToken ?? null, timeoutMs: options.timeoutMs });
    return cachedSource(source, options.cacheMs ?? 60_000);
  }
  const source = localSource(options.contentDir ?? join(repoRoot, 'infra/content/news'));
  return cachedSource(source, options.cacheMs ?? 0);
}

/** NewsOptions, and the reads per client address (docs/decisions/0108: each may ask Strapi; none when absent). */
export const newsRoutes: FastifyPluginAsyncTypebox<NewsOptions & { limit?: Limit }> = async (app, options) => {
  const source = newsSource(options);
  const now = options.now ?? (() => new Date());
  app.post('/strapi/story', {
    config: perAddress('news-read', options.limit),
    schema: { body: NewsRequest, response: { 200: NewsAnswer } },
  }, async (request) => {
    const locale = newsContentLocale(request.body.locale);
    try {
      return publishedBy(await source(locale), now());
    } catch (error) {
      request.log.warn({ err: error, locale }, 'news source failed');
      throw new DomainError('NEWS_UNAVAILABLE', error instanceof Error ? error.message : String(error));
    }
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(newsRoutes, (deps: RouteDependencies) => ({ ...deps.news, now: deps.now, limit: deps.limits.newsReads }));
