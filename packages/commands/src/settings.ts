/**
 * The global switches (spec §4), read from the `settings` stream. The command API refuses
 * registration (REGISTRATION_DISABLED) and the CommandService refuses entries
 * (ENTRY_INSERTION_DISABLED) from them; the query side may read them the same way.
 *
 * SettingsCache: the switches kept in memory with the revision of the
 * `settings` stream they were folded to. A command brings it up to date by reading only the
 * stream's tail (`tail()`, events after that revision), in the same round trip as its own streams
 * (executeCommand's `settings`), so no command folds the whole stream.
 */
import { settingsDecider, streams, type Settings } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { foldStream } from './handle';

/** The current switches: both on until an administrator turned one off. */
export async function readSettings(store: EventStore): Promise<Settings> {
  return foldStream(settingsDecider, await store.readStream(streams.settings()));
}

/** The switches folded up to a revision of the `settings` stream (see the module docs). */
export class SettingsCache {
  private state: Settings = settingsDecider.initialState();
  /** The revision folded so far (-1: none). */
  private revision = -1;

  /** The switches as folded so far (the defaults before the first read). */
  current(): Settings {
    return this.state;
  }

  /** What to read to be current: the `settings` stream after the folded revision. */
  tail(): { stream: string; fromRevision: number } {
    return { stream: streams.settings(), fromRevision: this.revision + 1 };
  }

  /**
   * Folds events of the `settings` stream read from `tail()`. Events at or below the folded
   * revision (a concurrent reader got there first) are skipped; a gap (an event after a missing
   * one) is not folded: the next tail read brings it again.
   */
  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.revision <= this.revision) continue;
      if (event.revision !== this.revision + 1) return;
      this.state = settingsDecider.evolve(this.state, { type: event.type, data: event.data } as Parameters<typeof settingsDecider.evolve>[1]);
      this.revision = event.revision;
    }
  }
}
