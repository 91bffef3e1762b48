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
import type { RecordedEvent } from '@sinilill/event-store';
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
   * Applies `events` (all of handled types, in global order) to the read model.
   * `db` is a transaction already bound to the target schema. The pure fold runs inside
   * parking.ts's `fold()`, so that what it throws is known as a data error of an event: the
   * runner then parks that event instead of failing for ever (issue 13). The events come without
   * their metadata (read with `metadata: false`: OMITTED_METADATA of @sinilill/event-store): a
   * projection folds what happened, not who asked for it.
   */
  apply(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<void>;
}

/** Splits rows into chunks that stay under PostgreSQL's 65 535 bind parameters per statement. */
export function chunk<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(60_000 / Math.max(1, columns)));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
