/**
 * The admin console's tabs, in their order on screen: spec §2's four (users, teams, entries,
 * reset password), then the event history and operations, the announcements, the review of
 * flagged entries, the prize draw and the editions (each year planned as data).
 * Also the `?tab=` values of /admin.
 */
export const ADMIN_TABS = ['users', 'teams', 'entries', 'resetPassword', 'history', 'operations', 'announcements', 'review', 'draw', 'editions'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** `value` when it names a tab, else undefined (the route's search validation). */
export function toAdminTab(value: unknown): AdminTab | undefined {
  return typeof value === 'string' && (ADMIN_TABS as readonly string[]).includes(value) ? (value as AdminTab) : undefined;
}
