/**
 * Every fold of entry events handles every entry event type, and the type checker names each
 * fold that misses one. The fake event type EntryTeleported stands for an entry event added to
 * the union later: each `@ts-expect-error` line below is a fold the compiler would name, so
 * `npx tsc -b` fails if a fold's handler map stops covering the union (the plain line then
 * errors) or if a fold would silently accept the new type (the expected error disappears).
 * Runtime: every map's keys hold every entry event type.
 */
import { describe, expect, test } from 'vitest';
import { ENTRY_EVENT_TYPES, drawEligibilityHandlers, entryLedgerHandlers, type EntryEvent } from '@sinilill/domain';
import { teamDirectoryHandlers, teamEntryRows, teamStatsHandlers } from '@sinilill/read-models';
import { contributionChanges } from './entry-fold';
import { teamAsOfHandlers } from './history-fold';
import { myEntryVersions } from './my-data-fold';

interface EntryTeleported {
  type: 'EntryTeleported';
  data: { entryId: number; teamId: number; participantId: number; teleportedAt: string };
}
type EntryEventWithFake = EntryEvent | EntryTeleported;

/** Compiles when `handlers` holds a handler for every type of the union `E`. */
function handlesEvery<E extends { type: string }>(handlers: { readonly [K in E['type']]: (...args: never[]) => unknown }): readonly string[] {
  return Object.keys(handlers);
}

describe('the folds of entry events', () => {
  test('each handles every entry event type; with a new type in the union, the compiler names each one', () => {
    const folds = {
      'entry ledger': handlesEvery<EntryEvent>(entryLedgerHandlers),
      'draw eligibility': handlesEvery<EntryEvent>(drawEligibilityHandlers),
      'team-stats': handlesEvery<EntryEvent>(teamStatsHandlers),
      'team-directory': handlesEvery<EntryEvent>(teamDirectoryHandlers),
      'team-directory rows': handlesEvery<EntryEvent>(teamEntryRows),
      'history as-of': handlesEvery<EntryEvent>(teamAsOfHandlers),
      'what this did': handlesEvery<EntryEvent>(contributionChanges),
      'my data': handlesEvery<EntryEvent>(myEntryVersions),
    };
    // @ts-expect-error the entry ledger has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(entryLedgerHandlers);
    // @ts-expect-error the draw's eligibility has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(drawEligibilityHandlers);
    // @ts-expect-error team-stats has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(teamStatsHandlers);
    // @ts-expect-error team-directory has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(teamDirectoryHandlers);
    // @ts-expect-error team-directory's entry rows have no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(teamEntryRows);
    // @ts-expect-error the history's as-of has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(teamAsOfHandlers);
    // @ts-expect-error "what this did" has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(contributionChanges);
    // @ts-expect-error my data has no handler for EntryTeleported
    handlesEvery<EntryEventWithFake>(myEntryVersions);
    for (const [fold, types] of Object.entries(folds)) {
      expect({ fold, missing: ENTRY_EVENT_TYPES.filter((type) => !types.includes(type)) }).toEqual({ fold, missing: [] });
    }
  });
});
