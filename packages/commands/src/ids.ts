/**
 * Integer ids for new teams, participants and entries (the spec's URLs use integer ids, e.g.
 * GET /team/{id}), allocated from PostgreSQL sequences in schema `app`. Sequences never hand
 * out an id twice, even across concurrent commands; a rolled-back command leaves a gap.
 * Imported rows keep their old ids, and the importer moves each sequence past the largest.
 * The sequences are made by migrations/0001-id-sequences.ts.
 */
import type pg from 'pg';

export type IdKind = 'team' | 'participant' | 'entry';

/** Hands out ids; the domain receives them as command fields (house style: ids come in as arguments). */
export interface IdAllocator {
  next(kind: IdKind): Promise<number>;
  /** Makes sure later ids are greater than `id` (after importing rows with their own ids). */
  reserveThrough(kind: IdKind, id: number): Promise<void>;
}

/** The IdAllocator on schema `app`'s sequences (`app.team_ids`, `app.participant_ids`, `app.entry_ids`). */
export class PostgresIdAllocator implements IdAllocator {
  constructor(private readonly pool: pg.Pool) {}

  async next(kind: IdKind): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT nextval('app.${kind}_ids') AS id`);
    return Number(rows[0]!.id);
  }

  async reserveThrough(kind: IdKind, id: number): Promise<void> {
    // setval(…, greatest(last_value, id)) under the sequence's own lock would race with nextval
    // only by handing out an id > id, which is exactly what is wanted.
    await this.pool.query(
      `SELECT setval('app.${kind}_ids', greatest($1::bigint, (SELECT last_value FROM app.${kind}_ids)))`,
      [id],
    );
  }
}
