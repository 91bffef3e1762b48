/**
 * The offline entry queue on the page (the logic is entry-queue.ts): adding an
 * entry queues it when the server is known to be unreachable (lib/connection.ts: the browser is
 * offline, or a request got no answer) or the POST got no answer, and the queue is sent when the
 * connection returns (the `online` event, or the server answering again), every
 * RETRY_INTERVAL_MS while entries wait, when another tab or a login changes it, and when the
 * team page loads — in the team page's chunk only (the home route's JavaScript stays under its
 * 150 KB).
 */
import type { AddEntryBody, EntryAnswer } from '@sinilill/contracts';
import { create } from 'zustand';
import { ApiError, newIdempotencyKey } from '../../../lib/api-client';
import { isReachable, reportNetwork, subscribeConnection } from '../../../lib/connection';
import { useSessionStore } from '../../../lib/session-store';
import { addEntry } from '../api/add-entry';
import { ENTRY_QUEUE_STORAGE_KEY, enqueueEntry, flushQueue, queuedFor, readQueue, type FlushResult, type QueuedEntry } from './entry-queue';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** The session's account id, '' when nobody is logged in. */
const currentUser = () => useSessionStore.getState().identity.userId;

interface EntryQueueState {
  /** The logged-in account's queued entries, oldest first. */
  entries: QueuedEntry[];
  /** Re-reads the queue from storage (another tab, a login). */
  sync: () => void;
  /**
   * Sends the queued entries (one flush at a time; a call during one shares it). Resolves to
   * what was sent and refused, or null when nothing could be tried (offline, nobody logged in).
   */
  flush: () => Promise<FlushResult | null>;
}

let flushing: Promise<FlushResult | null> | null = null;
/** Told about every flush's outcome: the team page refreshes and says what happened. */
const flushListeners = new Set<(result: FlushResult) => void>();

export const useEntryQueueStore = create<EntryQueueState>()((set, get) => ({
  entries: queuedFor(readQueue(storage()), currentUser()),
  sync: () => set({ entries: queuedFor(readQueue(storage()), currentUser()) }),
  flush: () => {
    flushing ??= (async () => {
      const userId = currentUser();
      if (userId === '' || !isReachable() || queuedFor(readQueue(storage()), userId).length === 0) return null;
      const result = await flushQueue(storage(), userId, (entry) => addEntry(entry.body, entry.key).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 0) reportNetwork(false);
        throw error;
      }));
      get().sync();
      if (result.sent.length > 0 || result.refused.length > 0) {
        reportNetwork(true);
        for (const listener of flushListeners) listener(result);
      }
      return result;
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  },
}));

/** Calls `listener` after every flush that sent or refused something; returns the unsubscribe. */
export function onFlushed(listener: (result: FlushResult) => void): () => void {
  flushListeners.add(listener);
  return () => flushListeners.delete(listener);
}

/** What adding an entry did: sent (the answer), or queued (no connection). */
export type AddOutcome = { queued: false; answer: EntryAnswer } | { queued: true; entry: QueuedEntry };

/**
 * Adds an entry (on the session's team's page) with a key made now: sent at once when the browser is online,
 * queued (with that key) when it is offline or the POST got no answer at all (ApiError status 0,
 * after the API client's retries). @throws ApiError: the server's refusal; the network failure
 * itself when the queue cannot be stored (storage refused).
 */
export async function addEntryOrQueue(body: AddEntryBody): Promise<AddOutcome> {
  const key = newIdempotencyKey();
  const queue = (): AddOutcome => {
    const { userId, teamId } = useSessionStore.getState().identity;
    const entry: QueuedEntry = { key, userId, teamId: teamId ?? 0, body, queuedAt: new Date().toISOString() };
    enqueueEntry(storage(), entry);
    useEntryQueueStore.getState().sync();
    return { queued: true, entry };
  };
  if (!isReachable()) return queue();
  try {
    return { queued: false, answer: await addEntry(body, key) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 0) throw error;
    reportNetwork(false);
    try {
      return queue();
    } catch {
      throw error;
    }
  }
}

/** How often waiting entries are tried again while the server counts as reachable, ms. */
export const RETRY_INTERVAL_MS = 10_000;

let started = false;

/**
 * Starts sending the queue by itself (once per page): now, whenever the connection returns,
 * every RETRY_INTERVAL_MS while entries wait (an answer lost on a network that seemed up), and
 * when another tab or a login changes the queue or the account.
 */
export function startEntryQueue(): void {
  if (started) return;
  started = true;
  const { flush, sync } = useEntryQueueStore.getState();
  subscribeConnection(() => {
    if (isReachable()) void flush();
  });
  setInterval(() => {
    if (useEntryQueueStore.getState().entries.length > 0) void flush();
  }, RETRY_INTERVAL_MS);
  window.addEventListener('storage', (event) => {
    if (event.key === ENTRY_QUEUE_STORAGE_KEY) sync();
  });
  useSessionStore.subscribe((state, previous) => {
    if (state.identity.userId === previous.identity.userId) return;
    sync();
    void flush();
  });
  void flush();
}
