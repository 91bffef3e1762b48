/**
 * Read-your-writes: a command's answer carries the global position of its last event; a query
 * that sends it back in `x-min-position` waits (bounded) until every projection's checkpoint has
 * reached it, so the caller sees its own change. The answer's `x-projected-position` says which
 * position the data reflects; after the bound the query answers with what it has.
 */
import type { Kysely } from 'kysely';
import { projections, readCheckpoints, type ReadModelDatabase } from '@sinilill/read-models';

/** The lowest checkpoint over all projections: every read model reflects at least this position. */
export async function projectedPosition(db: Kysely<ReadModelDatabase>): Promise<number> {
  const checkpoints = await readCheckpoints(db);
  return Math.min(...projections.map((p) => checkpoints[p.name] ?? 0));
}

/**
 * Waits until the projected position is at least `position`, polling every `pollMs`.
 * @returns the projected position and whether it reached `position` within `timeoutMs`.
 */
export async function waitForPosition(
  db: Kysely<ReadModelDatabase>,
  position: number,
  timeoutMs: number,
  pollMs = 15,
): Promise<{ position: number; reached: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const current = await projectedPosition(db);
    if (current >= position) return { position: current, reached: true };
    if (performance.now() >= deadline) return { position: current, reached: false };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
