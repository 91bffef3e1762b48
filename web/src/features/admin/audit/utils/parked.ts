import type { ParkedEvent, ParkedEventsAnswer } from '@sinilill/contracts';

/** What an administrator's decision about a park led to, once the projections acted on it. */
export type ParkedOutcome = 'retried' | 'still-parked' | 'skipped';

/** The key of a park: one projection's park of one event. */
export function parkKey(event: Pick<ParkedEvent, 'projection' | 'position'>): string {
  return `${event.projection}@${event.position}`;
}

/** Open parks in all, from the per-projection counts (the metric of GET /api/admin/parked). */
export function totalParked(answer: ParkedEventsAnswer): number {
  return answer.counts.reduce((sum, count) => sum + count.parked, 0);
}

/** The projections with open parks, by name: what the panel lists beside the total. */
export function projectionsWithParks(answer: ParkedEventsAnswer): { projection: string; parked: number }[] {
  return answer.counts.filter((count) => count.parked > 0).sort((a, b) => a.projection.localeCompare(b.projection));
}

/**
 * The outcome of a decision about `park`, read from the list fetched after it (with the
 * decision's position as x-min-position): a skip always resolves an open park; a retry did so
 * when the park is no longer open, else the event failed again.
 */
export function outcomeOf(kind: 'retry' | 'skip', park: Pick<ParkedEvent, 'projection' | 'position'>, after: ParkedEventsAnswer): ParkedOutcome {
  if (kind === 'skip') return 'skipped';
  const key = parkKey(park);
  return after.events.some((event) => event.status === 'parked' && parkKey(event) === key) ? 'still-parked' : 'retried';
}
