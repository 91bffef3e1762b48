/**
 * After-commit hooks of the event store: "waking the projectors is one
 * after-commit hook of the store, never the route's job". `withAfterCommit` wraps an EventStore
 * so that every append that wrote something calls the hook with the global position of its last
 * event, once the store has committed it — whoever appended (a route's command, ensureAdmin at
 * start, a tool). The command API wraps its store with it and wakes the projectors
 * (WakeUpPublisher.wake) there (services/command-api/src/server.ts).
 *
 * Not called for a failed append, a pure repeat (every event id stored already: the store answers
 * the stored result and writes nothing) or a zero-event revision check. An append inside an
 * AccountDirectory transaction calls it when the event store commits (the event store has its own
 * connection), before the account tables commit: the projectors read only the event log.
 */
import { aroundAppends, type AppendRequest, type AppendResult, type EventStore } from '@sinilill/event-store';

/** What an append that wrote something was (AfterCommitHook's second argument). */
export interface CommittedAppend {
  /**
   * The correlation id in the metadata of its last written event (the wake-up
   * carries it to the projector's log); undefined when that metadata has none.
   */
  correlationId: string | undefined;
}

/**
 * Called with the global position (>= 1) of the last event of an append that wrote something,
 * and what it was (CommittedAppend). Runs in the appender's async context (a request's, with its
 * trace span when tracing is on). Must not throw and should not wait (a failed wake-up is the
 * sweep's to catch up, docs/decisions/0017); an exception is caught and ignored so that it never fails the
 * committed command.
 */
export type AfterCommitHook = (position: number, append: CommittedAppend) => void;

/**
 * The store with `hook` called after each append that wrote events (see the module's comment),
 * appendToStreamsIf's included. Reads (readStreams too), `findEvent`, `headPosition` and `close`
 * pass through unchanged.
 */
export function withAfterCommit(store: EventStore, hook: AfterCommitHook): EventStore {
  const notify = (requests: readonly AppendRequest[], results: readonly AppendResult[]): void => {
    let position = 0;
    let correlationId: string | undefined;
    requests.forEach((request, index) => {
      const result = results[index];
      if (result && request.events.length > 0 && wrote(request, result) && result.position >= position) {
        position = result.position;
        correlationId = request.events.at(-1)?.metadata.correlationId || undefined;
      }
    });
    if (position > 0) {
      try {
        hook(position, { correlationId });
      } catch {
        // The command committed: a hook's failure must not turn it into an error (see AfterCommitHook).
      }
    }
  };
  return aroundAppends(store, async (requests, append) => {
    const result = await append();
    notify(requests, Array.isArray(result) ? result : [result]);
    return result;
  });
}

/**
 * False when the store answered the request as a repeat (its ids were all stored: nothing
 * written): as the store's answer says (`repeated`), when it says so. Otherwise: a write answers revision `expected + count`; a repeat answers the stream's current
 * revision, which differs once the stream has moved on since the first append. A repeat of an
 * append to a stream that has not moved since, or with an expected revision that is no number
 * ('any', 'stream_exists'), cannot be told from a write and calls the hook: a spare wake-up is
 * harmless (the projectors find nothing new). executeCommand never appends a repeat it knows of
 * (the repeat check comes first), so this is only a twin's race from another process.
 */
function wrote(request: AppendRequest, result: AppendResult): boolean {
  // A store that tells (AppendResult.repeated) is taken at its word.
  if (typeof result.repeated === 'boolean') return !result.repeated;
  const { expectedRevision } = request;
  if (expectedRevision === 'no_stream') return result.nextExpectedRevision === request.events.length - 1;
  if (typeof expectedRevision === 'number') return result.nextExpectedRevision === expectedRevision + request.events.length;
  return true;
}
