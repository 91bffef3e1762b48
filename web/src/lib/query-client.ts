/**
 * The one cache of server data in the client (TanStack Query; docs/decisions/0076): every read of
 * a spec §7 GET goes through it, keyed by `queryKeys`; zustand stores hold client state only
 * (language, session token, the offline queue, UI choices).
 *
 * Defaults keep the reads as the pages made them before: no automatic retries (a failed read
 * shows its catalogue error and a "try again" button, spec §8) and no refetch on window focus or
 * reconnect (the team page follows the server's live events for that, spec §2).
 */
import type { Language } from '@sinilill/contracts';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { useSessionStore } from './session-store';

/** The app's query client; module-level so that code outside React (a login, a payment's return) can read and refresh the cache. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
  },
});

/** The cache keys of the server reads, one per spec §7 call (and its arguments). */
export const queryKeys = {
  settings: ['settings'] as const,
  /** GET /api/editions: the current, next and archived editions (lib/edition.ts). */
  editions: ['editions'] as const,
  /** GET /api/history/editions/{year}: a closed edition's final figures. */
  archivedEdition: (year: number) => ['history', 'editions', year] as const,
  /** The payment info of a session: its access token (a new token is a new account or a new isPaid claim). */
  paymentInfo: (token: string | null) => ['payment-info', token] as const,
  stats: ['stats'] as const,
  /** POST /api/strapi/story: a read, though a POST (spec §7). */
  news: (lang: Language) => ['news', lang] as const,
  draw: ['draw'] as const,
  fundraising: ['fundraising'] as const,
  bankTransfer: ['bank-transfer'] as const,
  paymentMethods: ['payment-methods'] as const,
  /** The team page's team, members and entries, read together. */
  team: (teamId: number) => ['team', teamId] as const,
  teamMembersToPay: (teamId: number | null) => ['team-members-to-pay', teamId] as const,
  certificate: (code: string) => ['certificate', code] as const,
  /** GET /api/me/strava: the caller's Strava link and its proposals. */
  strava: ['me', 'strava'] as const,
  /** GET /api/participant/{id}/contributions. */
  contributions: (participantId: number) => ['contributions', participantId] as const,
  /** GET /api/team/{teamId}/entries/{entryId}/contribution. */
  contribution: (teamId: number, entryId: number) => ['team', teamId, 'contribution', entryId] as const,
  /** GET /api/team/{teamId}/joincode. */
  joinCode: (teamId: number) => ['team', teamId, 'join-code'] as const,
  adminAccountEmails: ['admin', 'account-emails'] as const,
  /** An admin console list as of the newest command position of the console (read-your-writes). */
  adminList: (name: string, position: number) => ['admin', name, position] as const,
  /** GET /api/admin/review?… as of a position (the console's decisions wait for it). */
  reviewQueue: (query: object, position: number) => ['admin', 'review', query, position] as const,
  /** GET /api/admin/participant/{id}/payments as of a position (a refund waits for it). */
  participantPayments: (participantId: number, position: number) => ['admin', 'participant-payments', participantId, position] as const,
  /** GET /api/admin/queues/announcements: the announcements and their sending progress. */
  announcements: ['admin', 'announcements'] as const,
  /** GET /api/admin/queues/announcements/recipients?audience=…. */
  announcementRecipients: (audience: string) => ['admin', 'announcements', 'recipients', audience] as const,
  /** GET /api/payment/order/{reference}. */
  paymentOrder: (reference: string) => ['payment-order', reference] as const,
  /** The participants page's table of teams (GET /api/stats/teams?…); the request is added per page. */
  teamsTable: ['stats', 'teams'] as const,
} satisfies Record<string, QueryKey | ((...args: never[]) => QueryKey)>;

// What one account read is not another's: a logout or a login as someone else empties the cache
// (the pages on screen read again). A refreshed token of the same account keeps it.
useSessionStore.subscribe((session, previous) => {
  if (session.identity.userId !== previous.identity.userId) void queryClient.resetQueries();
});
