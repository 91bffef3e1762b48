/**
 * The store side of command idempotency (docs/decisions/0007): finding a command handled before,
 * the position it answered, making sure an append was this request's own, and running a keyed
 * request so that a retry answers what the first run answered. The pieces that need no store
 * (request fingerprints, the keyed mutex) are in idempotency.ts.
 */
import { DomainError } from '@sinilill/domain';
import { DuplicateEventIdError, type EventData, type EventMetadata, type EventStore, type RecordedEvent } from '@sinilill/event-store';
import { KeyedMutex, canonicalJson, fingerprintOf } from '../idempotency';
import { eventIdFor, type CommandMetadata } from './metadata';

/**
 * The first event of a command that was handled before (the one with id `<commandId>:0`), or
 * null. This is the repeat check every command makes before deciding.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when that event was recorded for another
 *   request: both carry a request fingerprint and they differ (another body, path or route under
 *   the same Idempotency-Key). An event without a fingerprint (imported, or recorded before
 *   fingerprints existed), or a command without one, is taken as a repeat.
 */
export async function priorCommand(
  store: EventStore,
  metadata: Pick<CommandMetadata, 'commandId' | 'requestFingerprint'>,
): Promise<RecordedEvent | null> {
  const first = await store.findEvent(eventIdFor(metadata.commandId, 0));
  if (first) assertSameRequest(first.metadata, metadata);
  return first;
}

/** IDEMPOTENCY_KEY_REUSED unless the stored command's fingerprint is the request's (or either has none). */
export function assertSameRequest(stored: EventMetadata, metadata: Pick<CommandMetadata, 'commandId' | 'requestFingerprint'>): void {
  const storedFingerprint = fingerprintOf(stored);
  if (storedFingerprint === undefined || metadata.requestFingerprint === undefined) return;
  if (storedFingerprint !== metadata.requestFingerprint) {
    throw new DomainError('IDEMPOTENCY_KEY_REUSED', `command ${metadata.commandId} was recorded for another request`);
  }
}

/** Events read by the first and at most by any batch while looking for the end of a command's append. */
const COMMAND_SCAN_FIRST = 4;
const COMMAND_SCAN_MAX = 256;

/**
 * The global position of the last event of the command whose first event is `first`: what the
 * command answered the first time (the position of its last event, for read-your-writes). A
 * command's events are one append, and one append's positions are contiguous (docs/decisions/0001), so the command
 * ends where the events after `first` stop carrying its command id. Reads in growing batches
 * (4, 8, … 256 events): one small read for the usual one-event command.
 */
export async function lastPositionOf(store: EventStore, first: RecordedEvent): Promise<number> {
  const commandId = first.metadata.commandId;
  let last = first.globalPosition;
  if (commandId === undefined) return last;
  for (let size = COMMAND_SCAN_FIRST; ; size = Math.min(size * 2, COMMAND_SCAN_MAX)) {
    const batch = await store.readAll({ after: last, maxCount: size });
    for (const event of batch) {
      if (event.metadata.commandId !== commandId) return last;
      last = event.globalPosition;
    }
    if (batch.length < size) return last;
  }
}

/**
 * After an append of a command that came with an Idempotency-Key (its events carry a request
 * fingerprint; `first` is its event 0 as appended): makes sure the stored first event is this
 * request's own. The store takes an append whose ids are all stored already in the same stream as
 * a repeat and returns the stored result, so a racing request from another process with the same
 * key could otherwise pass as if it had appended.
 * @throws DomainError('IDEMPOTENCY_KEY_REUSED') when the stored command came from another request;
 *   DuplicateEventIdError when it came from the same request but decided other data (a racing
 *   twin from another process: nothing of this run was stored; CommandRepeats.idempotent answers
 *   with the stored result). Callers inside a transaction roll it back.
 */
export async function confirmOwnAppend(store: EventStore, first: EventData): Promise<void> {
  const requestFingerprint = fingerprintOf(first.metadata);
  if (requestFingerprint === undefined) return;
  const stored = await store.findEvent(first.id);
  if (!stored) return;
  assertSameRequest(stored.metadata, { commandId: first.metadata.commandId ?? first.id, requestFingerprint });
  if (canonicalJson(stored.data) !== canonicalJson(first.data)) throw new DuplicateEventIdError(first.id);
}

/** Keyed requests of one process, by command id (CommandService.idempotent). */
export class CommandRepeats {
  /** Keyed requests in progress in this process, by command id. */
  private readonly inProgress = new KeyedMutex();

  constructor(private readonly store: EventStore) {}

  /**
   * Runs one keyed request's command (`run`) so that a repeat of it answers what the first run
   * answered (docs/decisions/0007):
   *
   * - requests with the same command id run one after another in this process: a retry that
   *   arrives while the first request still runs waits for it, then finds its events and answers
   *   as a repeat (same answer, nothing appended);
   * - before running, the command id's first event (if any) must carry this request's
   *   fingerprint: another body, path or route under the same key is refused with
   *   IDEMPOTENCY_KEY_REUSED (422), whichever command it is;
   * - when the run fails and meanwhile the command id got stored (a twin of the request handled by
   *   another process won the race: the store refused this run's duplicate event ids, or a
   *   refusal or conflict came from the twin's events), the run is repeated once and so answers
   *   as a repeat of the twin.
   *
   * A run refused with a domain error appended nothing and is not remembered: the same request
   * may be sent again and is decided again. A request without a fingerprint (no Idempotency-Key:
   * a fresh command id) runs at once, unchecked. `checkedByCommand`: `run` makes the repeat check
   * (and so the IDEMPOTENCY_KEY_REUSED check) itself before it has any effect; the up-front one is
   * skipped.
   * @throws whatever `run` throws; DomainError('IDEMPOTENCY_KEY_REUSED').
   */
  async idempotent<T>(metadata: CommandMetadata, run: () => Promise<T>, options: { checkedByCommand?: boolean } = {}): Promise<T> {
    if (metadata.requestFingerprint === undefined) return run();
    return this.inProgress.run(metadata.commandId, async () => {
      // A command that makes the repeat check itself before any effect (the entry commands:
      // executeCommand, in the same round trip as its reads) is not checked twice.
      if (!options.checkedByCommand && (await priorCommand(this.store, metadata))) return run();
      try {
        return await run();
      } catch (error) {
        if (error instanceof DomainError && error.code === 'IDEMPOTENCY_KEY_REUSED') throw error;
        // Throws IDEMPOTENCY_KEY_REUSED itself when the twin was another request.
        if ((await priorCommand(this.store, metadata)) === null) throw error;
        return run();
      }
    });
  }
}
