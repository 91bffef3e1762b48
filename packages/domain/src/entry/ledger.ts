/**
 * The entry ledger: the one fold of entry events (streams entry-{id}) that says, for each entry,
 * its current team, participant, day, distance, type, source, review state and whether it counts.
 * Every fold of entries — the team-stats and team-directory read models, the history's as-of and
 * "what this did", the personal data download and the prize draw's eligibility — takes what an
 * entry event does to an entry from here (house style: "one fold per fact"), so a rule about
 * entries (such as "a rejected entry counts nowhere", spec §4 moderation in docs/decisions) lives
 * in one place. Pure: no I/O, no clock.
 *
 * An entry counts (its km belong to its team, its day and its participant) while it is live and
 * not rejected: EntryDeleted and EntryReviewRejected each take it out of every total; a flagged
 * entry counts until an administrator decides. The deletion of a participant or of a team does
 * not change an entry here: a team deletion deletes its entries by their own EntryDeleted events
 * in the same append, and what a deleted team's read-model rows do is the projection's concern.
 */
import { toHundredths } from '../distance';
import type { EntryEvent, EntrySource } from '../events';
import type { EntryReviewStatus } from './decider';
import { dispatch, handledTypes, type EventHandlers } from './event-handlers';

/** The type names of the entry events. */
export type EntryEventType = EntryEvent['type'];

/** What the ledger knows of one entry after its events so far. */
export interface LedgerEntry {
  entryId: number;
  teamId: number;
  participantId: number;
  /** The day it was performed, YYYY-MM-DD in the edition's time zone (Europe/Tallinn). */
  day: string;
  /** Distance in hundredths of a km (toHundredths of the event's km). */
  hundredths: number;
  /** A preset ActivityType key, or the free text typed under Other. */
  entryType: string;
  /** Typed in or read from an activity file; an edit keeps it. */
  source: EntrySource;
  review: EntryReviewStatus;
  deleted: boolean;
  /** True while the entry is live and not rejected: only then do its km count anywhere. */
  counts: boolean;
}

/** What a counting entry counts for: its team, participant, day and km (hundredths). */
export interface CountedEntry {
  entryId: number;
  teamId: number;
  participantId: number;
  day: string;
  hundredths: number;
}

/** An entry with `counts` derived: live and not rejected. Built field by field (a replay folds millions). */
function entry(
  entryId: number, teamId: number, participantId: number, day: string, hundredths: number, entryType: string,
  source: EntrySource, review: EntryReviewStatus, deleted: boolean,
): LedgerEntry {
  return { entryId, teamId, participantId, day, hundredths, entryType, source, review, deleted, counts: !deleted && review !== 'rejected' };
}

const MANUAL: EntrySource = { kind: 'manual' };

const reviewed = (review: EntryReviewStatus) => (_event: EntryEvent, before: LedgerEntry | null): LedgerEntry | null =>
  before && entry(before.entryId, before.teamId, before.participantId, before.day, before.hundredths, before.entryType, before.source, review, before.deleted);

/**
 * What each entry event does to an entry (`before`: the entry as the events before left it,
 * null when none named it). Events of an entry the fold never saw added leave it unknown (null),
 * except an edit, which carries the whole entry and so stands for it (the read models always
 * treated an edit so). Deciders guarantee the rest: an edit never follows a deletion or a
 * rejection (rejection is final), an id is added once.
 */
export const entryLedgerHandlers: EventHandlers<EntryEvent, [LedgerEntry | null], LedgerEntry | null> = {
  EntryAdded: ({ data }) =>
    entry(data.entryId, data.teamId, data.participantId, data.performedAt, toHundredths(data.distance), data.entryType, data.source, 'none', false),
  EntryEdited: ({ data }, before) =>
    entry(data.entryId, data.teamId, data.participantId, data.performedAt, toHundredths(data.distance), data.entryType, before?.source ?? MANUAL, before?.review ?? 'none', false),
  EntryDeleted: (_event, before) =>
    before && entry(before.entryId, before.teamId, before.participantId, before.day, before.hundredths, before.entryType, before.source, before.review, true),
  EntryFlagged: reviewed('flagged'),
  EntryReviewApproved: reviewed('approved'),
  EntryReviewRejected: reviewed('rejected'),
};

/** Every entry event type, in the order of the union's declaration. */
export const ENTRY_EVENT_TYPES: readonly EntryEventType[] = handledTypes(entryLedgerHandlers);

const ENTRY_TYPES: ReadonlySet<string> = new Set(ENTRY_EVENT_TYPES);

/** True when `type` names an entry event. */
export function isEntryEventType(type: string): type is EntryEventType {
  return ENTRY_TYPES.has(type);
}

/** An event read from the log as an EntryEvent, or null when it is of another type. */
export function asEntryEvent(recorded: { type: string; data: unknown }): EntryEvent | null {
  // The recorded event itself (its type and data are the event's): no copy per event in a replay.
  return isEntryEventType(recorded.type) ? (recorded as EntryEvent) : null;
}

/**
 * The entry after `event` (see entryLedgerHandlers).
 * @throws DomainError('INVALID_DISTANCE') for a distance with more than two decimals.
 */
export function evolveLedgerEntry(before: LedgerEntry | null, event: EntryEvent): LedgerEntry | null {
  return dispatch(entryLedgerHandlers, event, before);
}

/** What `entry` counts for, or null when it does not count (absent, deleted or rejected). */
export function countOf(entry: LedgerEntry | null | undefined): CountedEntry | null {
  if (!entry?.counts) return null;
  return { entryId: entry.entryId, teamId: entry.teamId, participantId: entry.participantId, day: entry.day, hundredths: entry.hundredths };
}

/** The km `entry` counts for, hundredths: 0 when it does not count (absent, deleted or rejected). */
export function countedHundredths(entry: LedgerEntry | null | undefined): number {
  return entry?.counts ? entry.hundredths : 0;
}

/**
 * The ledger for a fold that keeps only what counting entries count for (team-stats keeps one
 * row per counting entry): what the entry counts for after `event`, given what it counted for
 * before (null: it did not count, or was unknown). Same rules as evolveLedgerEntry: a kept row
 * stands for a live entry that is not rejected, and which of the other review states it is
 * changes nothing an entry counts for.
 * @throws DomainError('INVALID_DISTANCE') as evolveLedgerEntry.
 */
export function evolveEntryCount(before: CountedEntry | null, event: EntryEvent): CountedEntry | null {
  const known = before && entry(before.entryId, before.teamId, before.participantId, before.day, before.hundredths, '', MANUAL, 'none', false);
  return countOf(evolveLedgerEntry(known, event));
}

/** True when two counts are the same (both null, or the same team, participant, day and km). */
export function sameCount(a: CountedEntry | null, b: CountedEntry | null): boolean {
  if (a === null || b === null) return a === b;
  return a.entryId === b.entryId && a.teamId === b.teamId && a.participantId === b.participantId && a.day === b.day && a.hundredths === b.hundredths;
}

/** One entry event applied to the ledger: the entry before and after it. */
export interface LedgerChange {
  event: EntryEvent;
  before: LedgerEntry | null;
  after: LedgerEntry | null;
}

/**
 * The entries folded from entry events in global order, in memory (one small record per entry,
 * never the events). Events of other types are ignored by `applyRecorded`.
 */
export class EntryLedger {
  private readonly entries = new Map<number, LedgerEntry>();

  /**
   * Applies one entry event.
   * @throws DomainError('INVALID_DISTANCE') as evolveLedgerEntry.
   */
  apply(event: EntryEvent): LedgerChange {
    const before = this.entries.get(event.data.entryId) ?? null;
    const after = evolveLedgerEntry(before, event);
    if (after) this.entries.set(event.data.entryId, after);
    else this.entries.delete(event.data.entryId);
    return { event, before, after };
  }

  /** Applies an event read from the log when it is an entry event; null for any other type. */
  applyRecorded(recorded: { type: string; data: unknown }): LedgerChange | null {
    const event = asEntryEvent(recorded);
    return event ? this.apply(event) : null;
  }

  /** The entry as folded so far (deleted and rejected ones included), or undefined if never added. */
  get(entryId: number): LedgerEntry | undefined {
    return this.entries.get(entryId);
  }

  /** Every entry folded so far, deleted and rejected ones included. */
  values(): IterableIterator<LedgerEntry> {
    return this.entries.values();
  }
}

