/**
 * The offline queue of new entries: an entry added while the browser is
 * offline (navigator.onLine false, or POST /api/entry failed at the network level after the API
 * client's own retries) is kept here and sent when the connection returns, in the order added.
 *
 * Each queued entry keeps the idempotency key made when the member pressed "add"
 * (api-client.ts newIdempotencyKey) and every send repeats it: the command API answers a repeated
 * key with the first answer and appends nothing (docs/decisions/0007), so an entry whose
 * answer was lost, or that two tabs send at once, still counts once. An entry leaves the queue
 * only on a definite answer: a 2xx (sent), or a refusal by the catalogue (a 4xx with a code the
 * member must see, e.g. ENTRY_DEADLINE_PASSED). No answer, 401 (the session is being renewed),
 * 408, 429 and 5xx keep it, and the entries after it wait too (the order is kept).
 *
 * Storage: localStorage (as the session and the language are kept), one JSON array under
 * ENTRY_QUEUE_STORAGE_KEY, re-read before every change so that tabs do not overwrite each
 * other's additions. Each entry names the account (userId) that added it: only that account's
 * entries are shown and sent. Pure logic here (no DOM besides the Storage interface), so that
 * the unit tests run in node; entry-queue-store.ts wires it to the page.
 */
import type { AddEntryBody, EntryAnswer } from '@sinilill/contracts';
import { ApiError, errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';

/** The localStorage key of the queue. */
export const ENTRY_QUEUE_STORAGE_KEY = 'sinilill-entry-queue';

/** One entry waiting to be sent. */
export interface QueuedEntry {
  /** The idempotency key made when "add" was pressed; sent unchanged with every try. */
  key: string;
  /** The account that added it (the session's userId). */
  userId: string;
  /** The team whose page it was added on. */
  teamId: number;
  /** POST /api/entry's body as the form made it (distance in km, performed_at an ISO date). */
  body: AddEntryBody;
  /** When it was queued: ISO 8601 UTC. */
  queuedAt: string;
}

/** Where the queue is kept: the Storage interface's two methods used here. */
export type QueueStorage = Pick<Storage, 'getItem' | 'setItem'>;

function isQueuedEntry(value: unknown): value is QueuedEntry {
  const item = value as Partial<QueuedEntry> | null;
  return typeof item === 'object' && item !== null && typeof item.key === 'string' && typeof item.userId === 'string'
    && typeof item.teamId === 'number' && typeof item.body === 'object' && item.body !== null && typeof item.queuedAt === 'string';
}

/** The queue as stored, oldest first; empty when nothing (or nothing readable) is stored. */
export function readQueue(storage: QueueStorage | undefined): QueuedEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(ENTRY_QUEUE_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isQueuedEntry) : [];
  } catch {
    return [];
  }
}

/** Stores `queue`. @throws what Storage.setItem throws (quota, storage refused). */
function writeQueue(storage: QueueStorage | undefined, queue: readonly QueuedEntry[]): void {
  if (!storage) throw new Error('no storage for the entry queue');
  storage.setItem(ENTRY_QUEUE_STORAGE_KEY, JSON.stringify(queue));
}

/**
 * Adds `entry` at the end of the queue (a second entry with the same key replaces nothing: it
 * is ignored). @throws when storage refuses it — the caller then tells the member it was not kept.
 */
export function enqueueEntry(storage: QueueStorage | undefined, entry: QueuedEntry): void {
  const queue = readQueue(storage);
  if (queue.some((item) => item.key === entry.key)) return;
  writeQueue(storage, [...queue, entry]);
}

/** Removes the entry with `key` (if it is still there: another tab may have sent it). */
export function removeQueued(storage: QueueStorage | undefined, key: string): void {
  const queue = readQueue(storage);
  if (!queue.some((item) => item.key === key)) return;
  writeQueue(storage, queue.filter((item) => item.key !== key));
}

/** `userId`'s queued entries (for `teamId` when given), oldest first. */
export function queuedFor(queue: readonly QueuedEntry[], userId: string, teamId?: number): QueuedEntry[] {
  return queue.filter((item) => item.userId === userId && (teamId === undefined || item.teamId === teamId));
}

/**
 * What a failed send means for a queued entry: `later` (no answer — status 0 —, 401 while the
 * session is renewed, 408, 429, any 5xx: try again, keep the order) or `refused` (any other 4xx:
 * the catalogue's definite no, shown to the member, the entry leaves the queue).
 */
export function failureKind(error: unknown): 'later' | 'refused' {
  if (!(error instanceof ApiError)) return 'later';
  const { status } = error;
  if (status === 0 || status === 401 || status === 408 || status === 429 || status >= 500) return 'later';
  return status >= 400 ? 'refused' : 'later';
}

/** What one flush did. */
export interface FlushResult {
  /** Sent entries with the answer's event-store position (for read-your-writes). */
  sent: { entry: QueuedEntry; position: number }[];
  /** Refused entries with the catalogue code (removed from the queue). */
  refused: { entry: QueuedEntry; code: CatalogueCode }[];
  /** True when an entry could not be sent yet: it and the ones after it stay queued. */
  stopped: boolean;
}

/**
 * Sends `userId`'s queued entries, oldest first, with `send` (POST /api/entry with the entry's
 * key), removing each on a definite answer; stops at the first that must wait (failureKind
 * `later`). Never rejects on a failed send.
 */
export async function flushQueue(
  storage: QueueStorage | undefined,
  userId: string,
  send: (entry: QueuedEntry) => Promise<EntryAnswer>,
): Promise<FlushResult> {
  const result: FlushResult = { sent: [], refused: [], stopped: false };
  for (const entry of queuedFor(readQueue(storage), userId)) {
    // Sent meanwhile by another tab (or a flush of this one): nothing to do.
    if (!readQueue(storage).some((item) => item.key === entry.key)) continue;
    try {
      const answer = await send(entry);
      removeQueued(storage, entry.key);
      result.sent.push({ entry, position: answer.position });
    } catch (error) {
      if (failureKind(error) === 'later') {
        result.stopped = true;
        break;
      }
      removeQueued(storage, entry.key);
      result.refused.push({ entry, code: errorCodeOf(error) });
    }
  }
  return result;
}
