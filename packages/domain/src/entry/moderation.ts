/**
 * Moderation rules of entries (issue 20 item 1) as a pure evaluation: given an edition's rules,
 * the candidate entry (added or edited) and the participant's OTHER live entries of the same local
 * date (Europe/Tallinn, YYYY-MM-DD), the reasons to flag it for an administrator's review; none
 * means it passes. A flag never refuses the entry: it still counts until an admin rejects it.
 *
 * Rules (limits per entry type from edition.moderation; types without their own limits use
 * `default`):
 * - MAX_KM_PER_ENTRY: the entry's distance (km) above the type's maxKmPerEntry;
 * - MAX_KM_PER_DAY: the sum of the participant's live entries of that type on that date, the
 *   candidate included, above the type's maxKmPerDay;
 * - DUPLICATE: another live entry of the participant with the same date, type and distance.
 * Exactly at a limit passes; 0.01 km over flags. Sums are taken in hundredths of a km (integers),
 * so no floating-point rounding moves a boundary.
 */
import type { ModerationRules } from '../edition/types';
import type { EntryFlagReason, EntryModerationRule } from '../events';

export const MODERATION_RULES: readonly EntryModerationRule[] = ['MAX_KM_PER_ENTRY', 'MAX_KM_PER_DAY', 'DUPLICATE'];

/** Why an entry was flagged (events.ts EntryFlagReason). */
export type FlagReason = EntryFlagReason;

/** An entry as the rules see it. */
export interface ModeratedEntry {
  entryId: number;
  /** km, at most two decimals. */
  distance: number;
  entryType: string;
  /** YYYY-MM-DD, local. */
  performedAt: string;
}

const hundredths = (km: number): number => Math.round(km * 100);

/**
 * The reasons to flag `entry`, in rule order (empty: it passes).
 * @param sameDay the participant's other live entries; those of another date, and the entry
 *   itself, are ignored, so the caller may pass all of the participant's entries.
 */
export function moderationReasons(rules: ModerationRules, entry: ModeratedEntry, sameDay: readonly ModeratedEntry[]): FlagReason[] {
  const limits = rules.byType[entry.entryType] ?? rules.default;
  const others = sameDay.filter((e) => e.entryId !== entry.entryId && e.performedAt === entry.performedAt);
  const reasons: FlagReason[] = [];
  const own = hundredths(entry.distance);
  if (own > hundredths(limits.maxKmPerEntry)) reasons.push({ rule: 'MAX_KM_PER_ENTRY', limit: limits.maxKmPerEntry, value: own / 100 });
  const day = others.filter((e) => e.entryType === entry.entryType).reduce((sum, e) => sum + hundredths(e.distance), own);
  if (day > hundredths(limits.maxKmPerDay)) reasons.push({ rule: 'MAX_KM_PER_DAY', limit: limits.maxKmPerDay, value: day / 100 });
  if (rules.duplicates && own > 0) {
    const twin = others.find((e) => e.entryType === entry.entryType && hundredths(e.distance) === own);
    if (twin) reasons.push({ rule: 'DUPLICATE', limit: null, value: own / 100, duplicateOf: twin.entryId });
  }
  return reasons;
}
