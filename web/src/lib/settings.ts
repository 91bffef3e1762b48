/**
 * The global switches (spec §4: registration and entry insertion are each globally switchable),
 * read from GET /api/settings once per page load through the query cache (lib/query-client.ts)
 * and shared by the top bar and the pages. A read that failed is tried again by the next page
 * that needs it.
 */
import type { SettingsAnswer } from '@sinilill/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, errorCodeOf } from './api-client';
import { queryClient, queryKeys } from './query-client';

/** GET /api/settings as a cached read: fresh for the page load (an administrator's change is written into the cache, see publishSettings). */
export const settingsQuery = queryOptions({
  queryKey: queryKeys.settings,
  queryFn: ({ signal }) => apiGet<SettingsAnswer>('/settings', { signal }).catch((error: unknown) => {
    // Unknown switches count as off: /register stays empty rather than offering a form the
    // server may refuse.
    console.warn('GET /api/settings failed:', errorCodeOf(error));
    throw error;
  }),
  staleTime: Infinity,
});

/** The switches as a page sees them: null while loading and after a failure. */
export interface SettingsView {
  status: 'loading' | 'ready' | 'error';
  settings: SettingsAnswer | null;
}

/** The global switches, read when first needed. */
export function useSettings(): SettingsView {
  const query = useQuery(settingsQuery);
  if (query.status === 'success') return { status: 'ready', settings: query.data };
  return { status: query.status === 'error' ? 'error' : 'loading', settings: null };
}

/** True once the settings say registration is open (spec §2: otherwise /register shows nothing). */
export function selectRegistrationEnabled(view: SettingsView): boolean {
  return view.settings?.registrationEnabled === true;
}

/** Records switches the server confirmed (an administrator's change), so every page follows at once. */
export function publishSettings(next: SettingsAnswer): void {
  queryClient.setQueryData(queryKeys.settings, next);
}
