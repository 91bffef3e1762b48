/**
 * Projection `editions`: rm.editions, one row per edition of the log (spec §1 "the yearly
 * event"): its status (planned, opened, closed), its data as the latest EditionPlanned or
 * EditionChanged wrote it, and when it was planned, opened and closed. The query API builds its
 * EditionCatalog from these rows (services/query-api editions.ts); no live team page reads them.
 */
import { sql, type Kysely } from 'kysely';
import type { EditionEvent, EditionStatus } from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import type { Projection } from '../projection';
import { fold } from '../parking';
import type { ReadModelDatabase } from '../schema';

/** The event types the projection folds. */
export const EDITIONS_EVENTS = ['EditionPlanned', 'EditionChanged', 'EditionOpened', 'EditionClosed'] as const;

/** One rm.editions row in memory. */
export interface EditionRow {
  year: number;
  status: EditionStatus;
  /** The Edition (JSON-able). */
  data: unknown;
  plannedAt: string;
  openedAt: string | null;
  closedAt: string | null;
}

/**
 * Folds one edition event into the rows by year (pure). An event for a year never planned (the
 * decider refuses it, so only a damaged log has one) throws: its event is parked.
 */
export function evolveEditions(rows: Map<number, EditionRow>, event: EditionEvent): void {
  if (event.type === 'EditionPlanned') {
    rows.set(event.data.year, {
      year: event.data.year, status: 'planned', data: event.data.edition, plannedAt: event.data.plannedAt, openedAt: null, closedAt: null,
    });
    return;
  }
  const row = rows.get(event.data.year);
  if (!row) throw new Error(`${event.type} for edition ${event.data.year}, which was never planned`);
  switch (event.type) {
    case 'EditionChanged':
      row.data = event.data.edition;
      return;
    case 'EditionOpened':
      row.status = 'opened';
      row.openedAt = event.data.openedAt;
      return;
    case 'EditionClosed':
      row.status = 'closed';
      row.closedAt = event.data.closedAt;
      return;
  }
}

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<Map<number, EditionRow>> {
  const years = [...new Set(events.map((e) => (e.data as { year: number }).year))];
  const rows = await db.selectFrom('editions').selectAll().where('year', '=', sql<number>`any(${years}::int[])`).execute();
  return new Map(rows.map((row) => [row.year, {
    year: row.year, status: row.status, data: row.data, plannedAt: row.planned_at.toISOString(),
    openedAt: row.opened_at?.toISOString() ?? null, closedAt: row.closed_at?.toISOString() ?? null,
  }]));
}

/** The `editions` projection (rm.editions). */
export const editionsProjection: Projection = {
  name: 'editions',
  handles: EDITIONS_EVENTS,
  silent: true,
  async apply(db, events) {
    const rows = await load(db, events);
    fold(() => { for (const event of events) evolveEditions(rows, { type: event.type, data: event.data } as EditionEvent); });
    if (rows.size === 0) return;
    await db.insertInto('editions').values([...rows.values()].map((row) => ({
      year: row.year, status: row.status, data: JSON.stringify(row.data), planned_at: row.plannedAt, opened_at: row.openedAt, closed_at: row.closedAt,
    }))).onConflict((oc) => oc.column('year').doUpdateSet((eb) => ({
      status: eb.ref('excluded.status'), data: eb.ref('excluded.data'), planned_at: eb.ref('excluded.planned_at'),
      opened_at: eb.ref('excluded.opened_at'), closed_at: eb.ref('excluded.closed_at'),
    }))).execute();
  },
};
