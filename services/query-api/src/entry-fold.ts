/**
 * The pure fold of a team's entry events (streams entry-{id}), shared by the administrators'
 * figures as of an instant (history-fold.ts teamAsOf) and "what this did": what one entry's
 * latest event did to its team. No I/O; the routes read the events (history-query.ts,
 * contribution-query.ts) and hand them in. What each entry event does to an entry, and whether
 * the entry counts, comes from the domain's entry ledger: a deleted or rejected entry counts
 * nowhere.
 *
 * Distances are summed in integer hundredths of a km (exact) and rounded as spec §4 says before
 * any progress rule sees them (teamProgress, as the team-stats read model does).
 */
import type { Contribution, ContributionMission } from '@sinilill/contracts';
import {
  ENTRY_EVENT_TYPES,
  EntryLedger,
  asEntryEvent,
  countOf,
  dispatch,
  fromHundredths,
  roundedKm,
  teamProgress,
  toHundredths,
  type Edition,
  type EntryEvent,
  type EventHandlers,
  type LedgerEntry,
} from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';

/** The entry event types (every one: the ledger's); reading others for these folds is wasted work. */
export const ENTRY_EVENTS = ENTRY_EVENT_TYPES;

/**
 * The entries that count for one team while its entry events are applied in global order (the
 * entry ledger's counting entries of this team). Entries are keyed by id, so an entry edited
 * into another team leaves this one. Other event types, and events of the entries in `ignored`,
 * are passed over.
 */
export class TeamEntriesFold {
  private readonly ledger = new EntryLedger();
  private sum = 0;

  /**
   * @param teamId the team whose km are summed.
   * @param ignored entries folded as if they had no events (entryContributions: the rejected ones).
   */
  constructor(readonly teamId: number, private readonly ignored: ReadonlySet<number> = new Set()) {}

  /** The team's exact distance so far, hundredths of a km. */
  get hundredths(): number {
    return this.sum;
  }

  /** The entry's km in hundredths as it counts now, in any team; null when absent, deleted or rejected. */
  entryHundredths(entryId: number): number | null {
    return countOf(this.ledger.get(entryId))?.hundredths ?? null;
  }

  /**
   * Applies one event (entry events only; others are ignored).
   * @throws DomainError('INVALID_DISTANCE') for a distance with more than two decimals.
   */
  apply(event: { type: string; data: unknown }): void {
    const entryEvent = asEntryEvent(event);
    if (!entryEvent || this.ignored.has(entryEvent.data.entryId)) return;
    const { before, after } = this.ledger.apply(entryEvent);
    this.sum += this.counted(after) - this.counted(before);
  }

  private counted(entry: LedgerEntry | null): number {
    const count = countOf(entry);
    return count?.teamId === this.teamId ? count.hundredths : 0;
  }
}

/**
 * The change "what this did" answers for each entry event: the entry's own acts (added, edited,
 * deleted); a flag or a review decision is an administrator's act on it, not an answer of its own.
 */
export const contributionChanges: EventHandlers<EntryEvent, [], Contribution['change'] | null> = {
  EntryAdded: () => 'added',
  EntryEdited: () => 'edited',
  EntryDeleted: () => 'deleted',
  EntryFlagged: () => null,
  EntryReviewApproved: () => null,
  EntryReviewRejected: () => null,
};

/** The change of an event from the log, or null when "what this did" does not answer for it. */
function changeOf(event: RecordedEvent): { entryEvent: EntryEvent; change: Contribution['change'] } | null {
  const entryEvent = asEntryEvent(event);
  const kind = entryEvent && dispatch(contributionChanges, entryEvent);
  return entryEvent && kind ? { entryEvent, change: kind } : null;
}

/** The entries rejected by the end of `events` (the ledger's review state). */
function rejectedEntries(events: readonly RecordedEvent[]): Set<number> {
  const ledger = new EntryLedger();
  for (const event of events) ledger.applyRecorded(event);
  return new Set([...ledger.values()].filter((entry) => entry.review === 'rejected').map((entry) => entry.entryId));
}

/**
 * The missions whose end lies in (fromKm, toKm] on the endless route (lap after lap), in route
 * order, each with the lap (from 1) in which that end lies. Ends are compared in hundredths.
 * An end at the lap's length (the last mission) belongs to the lap it completes.
 */
export function missionsBetween(fromKm: number, toKm: number, edition: Edition): ContributionMission[] {
  // Route lengths are edition data, not entry distances: rounded to the nearest hundredth, not refused.
  const lap = Math.round(edition.route.lapLength * 100);
  const from = toHundredths(fromKm);
  const to = toHundredths(toKm);
  const found: ContributionMission[] = [];
  if (to <= from || lap <= 0) return found;
  // The last mission's end of lap k is where lap k + 1 starts: start one lap early to see it.
  for (let k = Math.max(0, Math.floor(from / lap) - 1); k * lap < to; k += 1) {
    for (const mission of edition.route.missions) {
      const end = k * lap + Math.round(mission.end * 100);
      if (end > from && end <= to) found.push({ id: mission.id, lap: k + 1, name: { ...mission.name } });
    }
  }
  return found;
}

function figures(hundredths: number, edition: Edition) {
  const distance = roundedKm(hundredths);
  const progress = teamProgress(distance, edition);
  return { distance, exact: fromHundredths(hundredths), blueFlowers: progress.blueFlowers, prestige: progress.prestige };
}

const change = (before: number, after: number) => ({ before, after, gained: after - before });

/**
 * What each target event did to team `teamId`: the team's figures folded from every event before
 * it and from every event up to and including it. An entry rejected by the end of `events`
 * counts nowhere, from its first event on: its own events did nothing (no km before or after),
 * and the other entries' answers are told against the team's km without it, as its figures now
 * are (docs/decisions/0069).
 *
 * @param events the team's entry events in global order (other teams' events are ignored).
 * @param targets global positions of entry events in `events` to answer for.
 * @returns by global position; a target that is not an entry's add, edit or deletion in `events` is absent.
 * @throws DomainError('INVALID_DISTANCE') for an entry distance with more than two decimals.
 */
export function entryContributions(
  teamId: number, events: readonly RecordedEvent[], targets: ReadonlySet<number>, edition: Edition,
): Map<number, Contribution> {
  const fold = new TeamEntriesFold(teamId, rejectedEntries(events));
  const answers = new Map<number, Contribution>();
  for (const event of events) {
    const target = targets.has(event.globalPosition) ? changeOf(event) : null;
    if (!target) {
      fold.apply(event);
      continue;
    }
    const { entryEvent, change: kind } = target;
    const data = entryEvent.data as { entryId: number; participantId?: number; createdAt?: string; editedAt?: string; deletedAt?: string };
    const entryBefore = fold.entryHundredths(data.entryId);
    const beforeHundredths = fold.hundredths;
    const before = figures(beforeHundredths, edition);
    fold.apply(event);
    const after = figures(fold.hundredths, edition);
    const entryAfter = fold.entryHundredths(data.entryId);
    answers.set(event.globalPosition, {
      entryId: data.entryId,
      teamId,
      participantId: data.participantId ?? 0,
      change: kind,
      at: data.createdAt ?? data.editedAt ?? data.deletedAt ?? event.recordedAt.toISOString(),
      recordedAt: event.recordedAt.toISOString(),
      entryDistance: {
        before: entryBefore === null ? null : fromHundredths(entryBefore),
        after: entryAfter === null ? null : fromHundredths(entryAfter),
      },
      distance: change(before.distance, after.distance),
      distanceExact: { before: before.exact, after: after.exact, gained: fromHundredths(fold.hundredths - beforeHundredths) },
      blueFlowers: change(before.blueFlowers, after.blueFlowers),
      prestige: change(before.prestige, after.prestige),
      lap: after.prestige + 1,
      missionsReached: missionsBetween(before.distance, after.distance, edition),
      missionsLost: missionsBetween(after.distance, before.distance, edition),
    });
  }
  return answers;
}

/** The global position of each entry's latest add, edit or deletion among `events` (entry id → position). */
export function latestEntryEvents(events: readonly RecordedEvent[]): Map<number, number> {
  const latest = new Map<number, number>();
  for (const event of events) {
    const target = changeOf(event);
    if (target) latest.set(target.entryEvent.data.entryId, event.globalPosition);
  }
  return latest;
}

/**
 * What entry `entryId`'s latest event in `events` did to team `teamId` (an edit counts as of the
 * edit, a deletion as of the deletion); null when `events` hold no event of that entry.
 * @throws DomainError('INVALID_DISTANCE') as entryContributions.
 */
export function entryContribution(teamId: number, entryId: number, events: readonly RecordedEvent[], edition: Edition): Contribution | null {
  const position = latestEntryEvents(events).get(entryId);
  if (position === undefined) return null;
  return entryContributions(teamId, events, new Set([position]), edition).get(position) ?? null;
}
