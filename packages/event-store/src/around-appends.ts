/**
 * The shape of the EventStore decorators that watch appends without changing them (the
 * after-commit hook of @sinilill/commands, the command API's append metrics): every append —
 * appendToStream, appendToStreams and appendToStreamsIf — runs through `around` with its
 * requests; reads (readStreams too, when the store has it), readEvents, countEvents, findEvent,
 * headPosition and close pass through unchanged. `subscribe` is not passed on (types.ts: the
 * projector takes it from the engine's store).
 */
import type { AppendRequest, AppendResult, EventStore } from './types';

/**
 * Runs one append: `append()` is the store's call, `requests` what it appends (one request for
 * appendToStream); returns (or throws) what the store's call did, or something else of that shape.
 */
export type AroundAppend = <T extends AppendResult | AppendResult[]>(requests: readonly AppendRequest[], append: () => Promise<T>) => Promise<T>;

/** `store` with its appends run through `around` (module docs). */
export function aroundAppends(store: EventStore, around: AroundAppend): EventStore {
  return {
    appendToStream: (stream, events, options) => around(
      [{ stream, events, expectedRevision: options.expectedRevision }],
      () => store.appendToStream(stream, events, options),
    ),
    appendToStreams: (requests) => around(requests, () => store.appendToStreams(requests)),
    appendToStreamsIf: (requests, condition) => around(requests, () => store.appendToStreamsIf(requests, condition)),
    ...(store.readStreams ? { readStreams: store.readStreams.bind(store) } : {}),
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readEvents: (selector, options) => store.readEvents(selector, options),
    countEvents: (selector) => store.countEvents(selector),
    headPosition: () => store.headPosition(),
    findEvent: (eventId) => store.findEvent(eventId),
    close: () => store.close(),
  };
}
