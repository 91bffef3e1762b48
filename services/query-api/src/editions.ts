/**
 * The editions as the query API knows them: an EditionCatalog built from rm.editions
 * (readModelEditionCatalog of @sinilill/read-models: a log without edition events gives 2025 as
 * opened), kept while the `editions` projection's position stays the same (the process's change
 * listener hears it move), or for a second where no listener keeps positions.
 *
 * Every existing route answers for the edition `answering` picks (spec §7's calls know no
 * editions): the current one (EditionCatalog.current), else the latest announced one. Those
 * routes do not list `editions` among the projections they read: a request's `x-min-position`
 * waits for the projections of its figures only, as before editions were data; an answer they
 * cache is keyed by the edition's year, read here, so a new current edition is never served
 * another's figures.
 */
import type { Kysely } from 'kysely';
import {
  editionView as viewOfEdition,
  type Edition,
  type EditionCatalog,
  type EditionRecord,
} from '@sinilill/domain';
import { editionsProjection, readModelEditionCatalog, type ReadModelDatabase } from '@sinilill/read-models';
import type { EditionViewAnswer } from '@sinilill/contracts';
import type { ProjectionPositions } from './live';

/** How long a catalogue is kept without a change listener, ms. */
const UNWATCHED_TTL_MS = 1000;

/** The read side's editions, cached (module docs). */
export class ReadModelEditions {
  private cached: { catalog: EditionCatalog; position: number; generation: number; at: number } | null = null;
  private loading: Promise<EditionCatalog> | null = null;

  constructor(private readonly db: Kysely<ReadModelDatabase>, private readonly positions?: ProjectionPositions) {}

  /** The catalogue of every edition in the read models. */
  async catalog(): Promise<EditionCatalog> {
    const watched = this.positions?.current === true;
    const position = watched ? this.positions!.position(editionsProjection.name) : -1;
    const generation = watched ? this.positions!.generation : -1;
    const cached = this.cached;
    if (cached && (watched
      ? cached.position === position && cached.generation === generation
      : performance.now() - cached.at < UNWATCHED_TTL_MS)) {
      return cached.catalog;
    }
    // One read for all the requests that find the cache stale at once.
    this.loading ??= readModelEditionCatalog(this.db.withSchema('rm')).then((catalog) => {
      this.cached = { catalog, position, generation, at: performance.now() };
      return catalog;
    }).finally(() => { this.loading = null; });
    return this.loading;
  }

  /**
   * The edition the public answers are about at `now`: the current one, else the latest announced
   * (opened or closed) one; null when only drafts, or nothing, exist.
   */
  async answering(now: Date): Promise<EditionRecord | null> {
    return answeringEdition(await this.catalog(), now);
  }

  /**
   * The edition of team `teamId` (rm.team_stats.edition); for a team the read models no longer
   * hold (deleted), the one the site answers for at `now`. Null only without any edition.
   */
  async ofTeam(teamId: number, now: Date): Promise<Edition | null> {
    const row = await this.db.withSchema('rm').selectFrom('team_stats').select('edition').where('team_id', '=', teamId).executeTakeFirst();
    const catalog = await this.catalog();
    return (row ? catalog.get(row.edition) : undefined)?.edition ?? answeringEdition(catalog, now)?.edition ?? null;
  }

  /** The year `answering` picks; -1 when none (no row matches it). */
  async answeringYear(now: Date): Promise<number> {
    return (await this.answering(now))?.edition.year ?? -1;
  }
}

/** The edition public answers are about at `now` (ReadModelEditions.answering). */
export function answeringEdition(catalog: EditionCatalog, now: Date): EditionRecord | null {
  const iso = now.toISOString();
  return catalog.current(iso) ?? catalog.list().filter((r) => r.status !== 'planned').at(-1) ?? null;
}

/** An edition as GET /api/editions and GET /api/admin/editions show it at `now`. */
export function editionView(record: EditionRecord, now: Date): EditionViewAnswer {
  return viewOfEdition(record, now.toISOString());
}
