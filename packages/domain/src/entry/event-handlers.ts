/**
 * Typed handler maps: a fold of events names one handler per event type of the union it folds,
 * in an object keyed by type. A missing type is a compile error at the fold, so an event type
 * added to a union is named, fold by fold, by `tsc` (house style: "its switch is exhaustive, so a
 * new event type names every fold it must reach"). The map's keys are also the fold's list of
 * handled types, so the list and the switch cannot disagree.
 */

/** One handler per type of the union `E`, each given its own event and `Args`, returning `R`. */
export type EventHandlers<E extends { type: string }, Args extends unknown[] = [], R = void> = {
  readonly [K in E['type']]: (event: Extract<E, { type: K }>, ...args: Args) => R;
};

/** The event types a handler map handles, in the map's order. */
export function handledTypes<T extends string>(handlers: { readonly [K in T]: unknown }): readonly T[] {
  return Object.keys(handlers) as T[];
}

/** Calls the handler of `event`'s type. */
export function dispatch<E extends { type: string }, Args extends unknown[], R>(
  handlers: EventHandlers<E, Args, R>, event: E, ...args: Args
): R {
  const handler = handlers[event.type as E['type']] as unknown as (event: E, ...args: Args) => R;
  return handler(event, ...args);
}

/**
 * Calls the handler of an event read from the log (type and payload as stored, already
 * upcast), when the map handles its type; `undefined` otherwise. The payload is trusted to
 * match its type: the store upcasts it to SCHEMA_VERSIONS and only deciders wrote it.
 */
export function dispatchRecorded<E extends { type: string }, Args extends unknown[], R>(
  handlers: EventHandlers<E, Args, R>, recorded: { type: string; data: unknown }, ...args: Args
): R | undefined {
  if (!Object.hasOwn(handlers, recorded.type)) return undefined;
  // The recorded event itself (its type and data are the event's): no copy per event in a replay.
  return dispatch(handlers, recorded as unknown as E, ...args);
}
