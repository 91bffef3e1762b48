/**
 * The pure fold of a team's entry events (EntryAdded, EntryEdited, EntryDeleted of streams
 * entry-{id}), shared by the administrators' figures as of an instant (history-fold.ts teamAsOf)
 * and "what this did": what one entry's latest event did to its team. No I/O;
 * the routes read the events (history-query.ts, contribution-query.ts) and hand them in.
 *
 * Distances are summed in integer hundredths of a km (exact) and rounded as spec §4 says before
 * any progress rule sees them (teamProgress, as the team-stats read model does).
 */
import type { Contribution, ContributionMission } from '@sinilill/contracts';
import { currentEdition, fromHundredths, roundedKm, teamProgress, toHundredths, type Edition } from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';

/** The entry event types; reading others for these folds is wasted work. */
/** The entry events the fold reads; a rejection by moderation takes the entry out of the team's km as a deletion does. */
export const ENTRY_EVENTS = ['EntryAdded', 'EntryEdited', 'EntryDeleted', 'EntryReviewRejected'] as const;

interface EntryData {
  entryId?: number;
  teamId?: number;
  participantId?: number;
  distance?: number;
  createdAt?: string;
  editedAt?: string;
  deletedAt?: string;
}

/**
 * The entries that count for one team while its entry events are applied in global order: each
 * entry's last EntryAdded/EntryEdited, unless deleted since. Entries are keyed by id, so an
 * entry edited into another team leaves this one. Other event types are ignored.
 */
export class TeamEntriesFold {
  private readonly entries = new Map<number, { teamId: number; hundredths: number }>();
  private sum = 0;

  constructor(readonly teamId: number) {}

  /** The team's exact distance so far, hundredths of a km. */
  get hundredths(): number {
    return this.sum;
  }

  /** The entry's km in hundredths as it stands now, in any team; null when absent or deleted. */
  entryHundredths(entryId: number): number | null {
    return this.entries.get(entryId)?.hundredths ?? null;
  }

  /**
   * Applies one event (entry events only; others are ignored).
   * @throws DomainError('INVALID_DISTANCE') for a distance with more than two decimals.
   */
  apply(event: RecordedEvent): void {
    const data = (event.data ?? {}) as EntryData;
    if (data.entryId === undefined) return;
    switch (event.type) {
      case 'EntryAdded':
      case 'EntryEdited':
        if (data.teamId === undefined || data.distance === undefined) return;
        this.remove(data.entryId);
        this.entries.set(data.entryId, { teamId: data.teamId, hundredths: toHundredths(data.distance) });
        if (data.teamId === this.teamId) this.sum += toHundredths(data.distance);
        return;
      case 'EntryDeleted':
      case 'EntryReviewRejected':
        this.remove(data.entryId);
        return;
      default:
        return;
    }
  }

  private remove(entryId: number): void {
    const old = this.entries.get(entryId);
    if (!old) return;
    if (old.teamId === this.teamId) this.sum -= old.hundredths;
    this.entries.delete(entryId);
  }
}

const CHANGE = { EntryAdded: 'added', EntryEdited: 'edited', EntryDeleted: 'deleted' } as const;

/**
 * The missions whose end lies in (fromKm, toKm] on the endless route (lap after lap), in route
 * order, each with the lap (from 1) in which that end lies. Ends are compared in hundredths.
 * An end at the lap's length (the last mission) belongs to the lap it completes.
 */
export function missionsBetween(fromKm: number, toKm: number, edition: Edition = currentEdition): ContributionMission[] {
  const lap = Math.round(edition.route.lapLength * 100);
  const from = Math.round(fromKm * 100);
  const to = Math.round(toKm * 100);
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
 * it and from every event up to and including it.
 *
 * @param events the team's entry events in global order (other teams' events are ignored).
 * @param targets global positions of entry events in `events` to answer for.
 * @returns by global position; a target that is not an entry event of `events` is absent.
 * @throws DomainError('INVALID_DISTANCE') for an entry distance with more than two decimals.
 */
export function entryContributions(
  teamId: number, events: readonly RecordedEvent[], targets: ReadonlySet<number>, edition: Edition = currentEdition,
): Map<number, Contribution> {
  const fold = new TeamEntriesFold(teamId);
  const answers = new Map<number, Contribution>();
  for (const event of events) {
    const type = event.type as keyof typeof CHANGE;
    const data = (event.data ?? {}) as EntryData;
    if (!targets.has(event.globalPosition) || !(type in CHANGE) || data.entryId === undefined) {
      fold.apply(event);
      continue;
    }
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
      change: CHANGE[type],
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

/** The global position of each entry's latest event among `events` (entry id → position). */
export function latestEntryEvents(events: readonly RecordedEvent[]): Map<number, number> {
  const latest = new Map<number, number>();
  for (const event of events) {
    const entryId = (event.data as EntryData | null)?.entryId;
    if (event.type in CHANGE && entryId !== undefined) latest.set(entryId, event.globalPosition);
  }
  return latest;
}

/**
 * What entry `entryId`'s latest event in `events` did to team `teamId` (an edit counts as of the
 * edit, a deletion as of the deletion); null when `events` hold no event of that entry.
 * @throws DomainError('INVALID_DISTANCE') as entryContributions.
 */
export function entryContribution(teamId: number, entryId: number, events: readonly RecordedEvent[], edition: Edition = currentEdition): Contribution | null {
  const position = latestEntryEvents(events).get(entryId);
  if (position === undefined) return null;
  return entryContributions(teamId, events, new Set([position]), edition).get(position) ?? null;
}
