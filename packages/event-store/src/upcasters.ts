/**
 * Upcasting (the project's first): events are lifted to their type's current
 * schema version as they are READ, so deciders, projections, the history route and exports only
 * ever see current payloads, while the stored event stays exactly as written (nothing already
 * stored is rewritten or lost). Every read path of both engines goes through `upcastEvent`:
 * PostgresEventStore's and KurrentDB's `toRecordedEvent` (readStream, readStreams, readAll,
 * findEvent, and the query API's history rows), hence also the personal-data decorator and every
 * wrapper above a store.
 *
 * Upcasters are registered once per process (registerUpcasters; the domain's EVENT_UPCASTERS are
 * registered by domain-upcasters.ts, which this package's index imports). An upcaster lifts one
 * version to the next; a chain lifts v1 → v2 → v3. Upcasters run before personal data is revealed
 * (the decorator sits above the store), so they must not read or write personal-data fields.
 */
import type { RecordedEvent } from './types';

/** Lifts the payload of one event type from `fromVersion` to `fromVersion + 1`. Pure; must not change its argument. */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: Record<string, unknown>): Record<string, unknown>;
}

/** type → fromVersion → upcaster. */
const registry = new Map<string, Map<number, Upcaster>>();

/**
 * Adds upcasters to the process's registry (idempotent for the same upcaster object).
 * @throws Error when another upcaster is registered already for the same type and version.
 */
export function registerUpcasters(upcasters: readonly Upcaster[]): void {
  for (const upcaster of upcasters) {
    if (!Number.isInteger(upcaster.fromVersion) || upcaster.fromVersion < 1) throw new Error(`upcaster for ${upcaster.type}: fromVersion ${upcaster.fromVersion} is not an integer >= 1`);
    let byVersion = registry.get(upcaster.type);
    if (!byVersion) registry.set(upcaster.type, (byVersion = new Map()));
    const present = byVersion.get(upcaster.fromVersion);
    if (present && present !== upcaster) throw new Error(`an upcaster for ${upcaster.type} v${upcaster.fromVersion} is registered already`);
    byVersion.set(upcaster.fromVersion, upcaster);
  }
}

/**
 * The event with its payload lifted through every registered upcaster from its schema version on
 * (schemaVersion raised to match); the same object when none applies (the common case costs one
 * Map lookup). A payload that is not a JSON object is left as it is.
 */
export function upcastEvent<Event extends Pick<RecordedEvent, 'type' | 'schemaVersion' | 'data'>>(event: Event): Event {
  const byVersion = registry.get(event.type);
  if (!byVersion) return event;
  let upcaster = byVersion.get(event.schemaVersion);
  if (!upcaster || event.data === null || typeof event.data !== 'object' || Array.isArray(event.data)) return event;
  let data = event.data as Record<string, unknown>;
  let version = event.schemaVersion;
  while (upcaster) {
    data = upcaster.upcast(data);
    version += 1;
    upcaster = byVersion.get(version);
  }
  return { ...event, schemaVersion: version, data };
}
