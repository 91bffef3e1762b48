/**
 * The global switches (spec §4), read from the `settings` stream. The command API refuses
 * registration (REGISTRATION_DISABLED) and the CommandService refuses entries
 * (ENTRY_INSERTION_DISABLED) from them; the query side may read them the same way.
 */
import { settingsDecider, streams, type Settings } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { foldStream } from './handle';

/** The current switches: both on until an administrator turned one off. */
export async function readSettings(store: EventStore): Promise<Settings> {
  return foldStream(settingsDecider, await store.readStream(streams.settings()));
}
