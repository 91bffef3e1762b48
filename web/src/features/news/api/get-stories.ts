import type { Language, NewsAnswer, NewsLocale } from '@sinilill/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiPost, errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import { queryKeys } from '../../../lib/query-client';

/**
 * POST /api/strapi/story {locale} (spec §7): the news stories in `locale`, newest first.
 * Throws ApiError (NEWS_UNAVAILABLE when the content service failed).
 */
export function getStories(locale: NewsLocale, signal?: AbortSignal): Promise<NewsAnswer> {
  return apiPost<NewsAnswer>('/strapi/story', { locale }, { signal });
}

export type StoriesState =
  | { status: 'loading' }
  | { status: 'ready'; stories: NewsAnswer['stories'] }
  | { status: 'error'; code: CatalogueCode };

/** The stories in `lang`, read on mount through the query cache; `retry` asks again after a failure (showing loading meanwhile). */
export function useStories(lang: Language): { state: StoriesState; retry: () => void } {
  const query = useQuery({ queryKey: queryKeys.news(lang), queryFn: ({ signal }) => getStories(lang, signal) });
  const { refetch } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  if (query.status === 'success') return { state: { status: 'ready', stories: query.data.stories }, retry };
  if (query.status === 'error' && !query.isFetching) return { state: { status: 'error', code: errorCodeOf(query.error) }, retry };
  return { state: { status: 'loading' }, retry };
}
