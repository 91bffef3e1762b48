import type { NewsAnswer, NewsLocale } from '@sinilill/contracts';
import { useCallback, useEffect, useState } from 'react';
import { apiPost, errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import type { Language } from '@sinilill/contracts';

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

/** The stories in `lang`, loaded on mount; `retry` asks again after a failure. */
export function useStories(lang: Language): { state: StoriesState; retry: () => void } {
  const [state, setState] = useState<StoriesState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    getStories(lang, controller.signal).then(
      (answer) => setState({ status: 'ready', stories: answer.stories }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', code: errorCodeOf(error) });
      },
    );
    return () => controller.abort();
  }, [lang, attempt]);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry };
}
