/**
 * Read-your-writes (architecture: the query API reads projections that trail the event store).
 * A command answers the global `position` of its last event; a read that sends it back in
 * `x-min-position` is answered only once the read models have reached it.
 */
import type { MIN_POSITION_HEADER as ContractHeader } from '@sinilill/contracts';

/**
 * The header's name. Spelled here rather than imported as a value, which would bundle the
 * contracts' schema library; the type ties it to the contract, so a rename fails `tsc -b`.
 */
export const MIN_POSITION_HEADER: typeof ContractHeader = 'x-min-position';

/** The request headers for a read that must reflect `position` (none for undefined/null). */
export function minPositionHeaders(position: number | null | undefined): Record<string, string> | undefined {
  if (position === null || position === undefined || !Number.isSafeInteger(position) || position <= 0) return undefined;
  return { [MIN_POSITION_HEADER]: String(position) };
}
