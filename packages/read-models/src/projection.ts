/**
 * A projection turns events into read-model rows. The runner hands it a batch of events in
 * global-position order inside a transaction that also moves its checkpoint, so a batch is
 * applied exactly once whatever crashes or duplicate wake-ups happen.
 *
 * Each projection here works in three steps: load the rows the batch touches (a few queries),
 * fold the events over them in memory with a pure `evolve`, write the changed rows back in bulk.
 * That keeps a replay at tens of thousands of events per second.
 */
import type { Kysely } from 'kysely';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import type { ReadModelDatabase } from './schema';

export interface Projection {
  /** Also the checkpoint's key and the BullMQ queue's suffix. */
  readonly name: string;
  /** Event types it reads; others only advance its checkpoint. */
  readonly handles: readonly string[];
  /**
   * True when no live team page reads its tables (the team page's stream, changes.ts): its
   * batches' change notifications then name no team (`teams: []`, only the new position), since
   * for events without a team (accounts) they would tell every open team page to refetch for nothing.
   */
  readonly silent?: boolean;
  /**
   * The teams a live team page must hear of for a batch's applied events (changes.ts), when only
   * some of the projection's events concern a team page: ids ascending, null for any team, [] for
   * none. Default (not silent): changedTeams, every applied event's teamId.
   */
  readonly teamsOf?: (applied: readonly Pick<RecordedEvent, 'type' | 'data'>[]) => number[] | null;
  /**
   * Applies `events` (all of handled types, in global order) to the read model.
   * `db` is a transaction already bound to the target schema. The pure fold runs inside
   * parking.ts's `fold()`, so that what it throws is known as a data error of an event: the
   * runner then parks that event instead of failing for ever. The events come without
   * their metadata (read with `metadata: false`: OMITTED_METADATA of @sinilill/event-store): a
   * projection folds what happened, not who asked for it.
   */
  apply(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[], context: ApplyContext): Promise<void>;
  /**
   * Optional: a session that keeps state across the batches of one rebuild (rebuild.ts, docs/decisions/0043).
   * Its `apply` replaces the projection's for the rebuild's pass: it may keep rows in memory
   * instead of loading and rewriting them every batch, and must write them all by `finish`. It
   * keeps the same contract as `apply` (all or nothing: state it keeps changes only once the
   * batch's writes have succeeded, so a batch the runner bisects to park an event, or rolls back,
   * leaves it as it was). Without it the rebuild calls `apply` batch after batch.
   */
  rebuild?(): RebuildSession;
}

/**
 * What a projection's apply may read besides its own tables: the log, through the EventStore
 * (one door to the log). team-stats reads there what an entry counted for before a batch, rather
 * than keeping a second copy of every entry (docs/decisions/0103).
 */
export interface ApplyContext {
  store: EventStore;
}

/** A projection's state across one rebuild's batches (Projection.rebuild). */
export interface RebuildSession {
  /** As Projection.apply, on the rebuild's private schema, the batches in global order. */
  apply(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[], context: ApplyContext): Promise<void>;
  /** Writes what the session kept in memory; called once after the last batch, before the indexes and the swap. */
  finish(db: Kysely<ReadModelDatabase>): Promise<void>;
}

/**
 * A set of non-negative integer ids (entry ids) as a growable bitset: a million ids in 128 KB,
 * where a Set<number> would take tens of MB of a rebuild's heap. Ids are allocated densely from 1
 * (the id allocator), so the bitset stays about as large as the highest id.
 */
export class IdSet {
  private bits = new Uint8Array(1024);

  has(id: number): boolean {
    const byte = id >>> 3;
    return byte < this.bits.length && (this.bits[byte]! & (1 << (id & 7))) !== 0;
  }

  add(id: number): void {
    const byte = id >>> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte]! |= 1 << (id & 7);
  }

  delete(id: number): void {
    const byte = id >>> 3;
    if (byte < this.bits.length) this.bits[byte]! &= ~(1 << (id & 7));
  }
}

/** Splits rows into chunks that stay under PostgreSQL's 65 535 bind parameters per statement. */
export function chunk<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(60_000 / Math.max(1, columns)));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
