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

/**
 * The IdAllocator on schema `app`'s sequences (`app.team_ids`, `app.participant_ids`, `app.entry_ids`).
 *
 * With `block` > 1 (the command API: fewer round trips per command) each
 * sequence read takes `block` ids at once (`nextval` over generate_series, one round trip) and
 * hands them out one by one: a process's ids stay unique and increasing, but ids of concurrent
 * processes interleave and a stopped process leaves its unused ids as gaps. `reserveThrough`
 * drops this process's unused ids; another process's unused ids below the reserved id are still
 * handed out, so reserve (import) before the command API starts taking commands, as
 * `npm start` does.
 */
export class PostgresIdAllocator implements IdAllocator {
  private readonly unused = new Map<IdKind, number[]>();
  private readonly block: number;

  constructor(private readonly pool: pg.Pool, options: { block?: number } = {}) {
    this.block = Math.max(1, Math.floor(options.block ?? 1));
  }

  async next(kind: IdKind): Promise<number> {
    const cached = this.unused.get(kind);
    if (cached && cached.length > 0) return cached.shift()!;
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT nextval('app.${kind}_ids') AS id FROM generate_series(1, $1::int)`, [this.block],
    );
    const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    const first = ids.shift()!;
    // Another caller may have filled the cache meanwhile: keep both blocks.
    this.unused.set(kind, [...(this.unused.get(kind) ?? []), ...ids].sort((a, b) => a - b));
    return first;
  }

  async reserveThrough(kind: IdKind, id: number): Promise<void> {
    this.unused.delete(kind);
    // setval(…, greatest(last_value, id)) under the sequence's own lock would race with nextval
    // only by handing out an id > id, which is exactly what is wanted.
    await this.pool.query(
      `SELECT setval('app.${kind}_ids', greatest($1::bigint, (SELECT last_value FROM app.${kind}_ids)))`,
      [id],
    );
  }
}
