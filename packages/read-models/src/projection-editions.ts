/**
 * The editions a projection computes with (team-stats: each edition's route; payments: its fees),
 * kept by that projection itself in rm.projection_editions (decision 0079). A projection that
 * needs an edition also reads EditionPlanned and EditionChanged and folds them here, so that the
 * edition of a team registered right after its edition was planned is known whatever the other
 * projections' checkpoints are (each projection runs on its own).
 *
 * A log without edition events was written before editions were data: every team and
 * participant in it is of 2025 (the upcasters), and that year's edition is then the seed's
 * (EDITION_OF_EVENTS_BEFORE_EDITIONS), as EditionCatalog.fromEvents counts it.
 */
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '@sinilill/event-store';
import type { Edition, EditionChanged, EditionPlanned } from '@sinilill/domain';
import { EDITION_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import type { ReadModelDatabase } from './schema';

/** The edition events that carry an edition's data. */
export const EDITION_DATA_EVENTS = ['EditionPlanned', 'EditionChanged'] as const;

/** An edition by year, for a projection's pure fold. */
export type EditionLookup = (year: number) => Edition;

/** Thrown (and so parked, parking.ts) for a team or participant of an edition the log does not have. */
export class UnknownEditionError extends Error {
  constructor(readonly year: number) {
    super(`edition ${year} is not in the log`);
  }
}

/** One projection's editions: loaded, folded from its batch's edition events, written back. */
export class ProjectionEditions {
  private readonly changed = new Set<number>();

  private constructor(private readonly projection: string, private readonly byYear: Map<number, Edition>) {}

  /** An empty set (a rebuild's start). */
  static empty(projection: string): ProjectionEditions {
    return new ProjectionEditions(projection, new Map());
  }

  /** The projection's editions as stored. */
  static async load(db: Kysely<ReadModelDatabase>, projection: string): Promise<ProjectionEditions> {
    const rows = await db.selectFrom('projection_editions').select(['year', 'data']).where('projection', '=', projection).execute();
    return new ProjectionEditions(projection, new Map(rows.map((row) => [row.year, row.data as Edition])));
  }

  /** True for the edition events this fold reads. */
  static isEditionEvent(event: Pick<RecordedEvent, 'type'>): boolean {
    return (EDITION_DATA_EVENTS as readonly string[]).includes(event.type);
  }

  /** Folds an EditionPlanned or EditionChanged; returns the year whose data changed, null for other events. */
  fold(event: Pick<RecordedEvent, 'type' | 'data'>): number | null {
    if (!ProjectionEditions.isEditionEvent(event)) return null;
    const { year, edition } = (event as unknown as EditionPlanned | EditionChanged).data;
    this.byYear.set(year, edition);
    this.changed.add(year);
    return year;
  }

  /**
   * The edition of `year`.
   * @throws UnknownEditionError when the log has no such edition (and it is not the year of a log
   *   from before editions).
   */
  readonly get: EditionLookup = (year) => {
    const edition = this.byYear.get(year);
    if (edition) return edition;
    if (year === EDITION_OF_EVENTS_BEFORE_EDITIONS.year) return EDITION_OF_EVENTS_BEFORE_EDITIONS;
    throw new UnknownEditionError(year);
  };

  /** Writes the editions folded since the last save. */
  async save(db: Kysely<ReadModelDatabase>): Promise<void> {
    if (this.changed.size === 0) return;
    const rows = [...this.changed].map((year) => ({ projection: this.projection, year, data: JSON.stringify(this.byYear.get(year)) }));
    await db.insertInto('projection_editions').values(rows)
      .onConflict((oc) => oc.columns(['projection', 'year']).doUpdateSet({ data: sql`excluded.data` }))
      .execute();
    this.changed.clear();
  }

  /** A copy (a rebuild's batch folds into a copy, kept only once its writes succeeded). */
  copy(): ProjectionEditions {
    return new ProjectionEditions(this.projection, new Map(this.byYear));
  }
}
