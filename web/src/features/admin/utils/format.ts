/**
 * Instants in the admin console's tables (spec §2 "Admin", §9): ISO-8601 UTC from the server,
 * sorted by their time (shown in Europe/Tallinn by lib/format-date and audit's formatAuditTime).
 */

/** Milliseconds since the epoch of an ISO-8601 instant, for sorting; null when missing or unreadable. */
export function instantMs(isoInstant: string | null | undefined): number | null {
  if (!isoInstant) return null;
  const ms = Date.parse(isoInstant);
  return Number.isNaN(ms) ? null : ms;
}
