/**
 * Moderation rules of entries as a pure evaluation: given an edition's rules,
 * the candidate entry (added or edited) and the participant's OTHER live entries of the same local
 * date (Europe/Tallinn, YYYY-MM-DD), the reasons to flag it for an administrator's review; none
 * means it passes. A flag never refuses the entry: it still counts until an admin rejects it.
 *
 * Rules (limits per entry type from edition.moderation; types without their own limits use
 * `default`):
 * - MAX_KM_PER_ENTRY: the entry's distance (km) above the type's maxKmPerEntry;
 * - MAX_KM_PER_DAY: the sum of the participant's live entries of that type on that date, the
 *   candidate included, above the type's maxKmPerDay;
 * - DUPLICATE: another live entry of the participant with the same date, type and distance;
 * - TEAM_DAY_OUTLIER: the team's km that day per member (its other live entries of that date, the
 *   candidate included) above `teamDayOutlier.factor` × the `percentile` of the other teams' km per
 *   member that day, once `minTeams` other teams have km that day (the caller reads the
 *   distribution from the read models: a heuristic, as current as they are).
 * Exactly at a limit passes; 0.01 km over flags. Sums are taken in hundredths of a km (integers),
 * so no floating-point rounding moves a boundary.
 */
import { toHundredths } from '../distance';
import type { ModerationRules } from '../edition/types';
import type { EntryFlagReason, EntryModerationRule } from '../events';

export const MODERATION_RULES: readonly EntryModerationRule[] = ['MAX_KM_PER_ENTRY', 'MAX_KM_PER_DAY', 'DUPLICATE', 'TEAM_DAY_OUTLIER'];

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

/**
 * A limit of edition.moderation in hundredths: edition data, not an entry's distance, so it is
 * rounded to the nearest hundredth rather than refused as an entry's distance would be.
 */
const limitHundredths = (km: number): number => Math.round(km * 100);

/** The team's day as TEAM_DAY_OUTLIER sees it (read from the read models by the caller). */
export interface TeamDay {
  /** The team's other live entries of the entry's date, km in hundredths (the candidate's own left out). */
  otherHundredths: number;
  /** The team's members (at least 1 is assumed). */
  members: number;
  /** Every other team's km per member that day (teams with km that day), km. */
  othersPerMember: readonly number[];
}

/** The `percentile` (0–1) of `values` by nearest rank; null for none. */
export function nearestRank(values: readonly number[], percentile: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(percentile * sorted.length)));
  return sorted[rank - 1]!;
}

/**
 * TEAM_DAY_OUTLIER's reason for an entry of `ownHundredths` on the team's `day`, or null. Limit and
 * value in km per member, to 0.01; a value exactly at the limit passes.
 */
export function teamDayOutlierReason(rules: ModerationRules, ownHundredths: number, day: TeamDay): FlagReason | null {
  const rule = rules.teamDayOutlier;
  if (!rule || day.othersPerMember.length < rule.minTeams) return null;
  const base = nearestRank(day.othersPerMember, rule.percentile)!;
  const limit = Math.round(base * rule.factor * 100) / 100;
  const value = Math.round((day.otherHundredths + ownHundredths) / Math.max(1, day.members)) / 100;
  return value > limit ? { rule: 'TEAM_DAY_OUTLIER', limit, value } : null;
}

/**
 * The reasons to flag `entry`, in rule order (empty: it passes).
 * @param sameDay the participant's other live entries; those of another date, and the entry
 *   itself, are ignored, so the caller may pass all of the participant's entries.
 * @param teamDay the team's day for TEAM_DAY_OUTLIER; absent: that rule is not applied.
 */
export function moderationReasons(rules: ModerationRules, entry: ModeratedEntry, sameDay: readonly ModeratedEntry[], teamDay?: TeamDay): FlagReason[] {
  const limits = rules.byType[entry.entryType] ?? rules.default;
  const others = sameDay.filter((e) => e.entryId !== entry.entryId && e.performedAt === entry.performedAt);
  const reasons: FlagReason[] = [];
  const own = toHundredths(entry.distance);
  if (own > limitHundredths(limits.maxKmPerEntry)) reasons.push({ rule: 'MAX_KM_PER_ENTRY', limit: limits.maxKmPerEntry, value: own / 100 });
  const day = others.filter((e) => e.entryType === entry.entryType).reduce((sum, e) => sum + toHundredths(e.distance), own);
  if (day > limitHundredths(limits.maxKmPerDay)) reasons.push({ rule: 'MAX_KM_PER_DAY', limit: limits.maxKmPerDay, value: day / 100 });
  if (rules.duplicates && own > 0) {
    const twin = others.find((e) => e.entryType === entry.entryType && toHundredths(e.distance) === own);
    if (twin) reasons.push({ rule: 'DUPLICATE', limit: null, value: own / 100, duplicateOf: twin.entryId });
  }
  const outlier = teamDay ? teamDayOutlierReason(rules, own, teamDay) : null;
  if (outlier) reasons.push(outlier);
  return reasons;
}
