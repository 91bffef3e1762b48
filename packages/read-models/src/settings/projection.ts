/**
 * Projection `settings`: the global switches (spec §4: registration and entry insertion are each
 * globally switchable), from the `settings` stream's SettingsChanged events. Both start enabled.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import type { Projection } from '../projection';
import { fold } from '../parking';

/** A SettingsChanged event's payload: each switch is present only when it changed. */
interface SettingsChangedData {
  registrationEnabled?: boolean;
  entryInsertionEnabled?: boolean;
}

/** The switches after `events`, starting from `current` (pure). */
export function evolveSettings(
  current: { registrationEnabled: boolean; entryInsertionEnabled: boolean },
  events: readonly RecordedEvent[],
) {
  let state = { ...current };
  for (const event of events) {
    if (event.type !== 'SettingsChanged') continue;
    const data = event.data as SettingsChangedData;
    state = {
      registrationEnabled: data.registrationEnabled ?? state.registrationEnabled,
      entryInsertionEnabled: data.entryInsertionEnabled ?? state.entryInsertionEnabled,
    };
  }
  return state;
}

export const settingsProjection: Projection = {
  name: 'settings',
  handles: ['SettingsChanged'],
  async apply(db, events) {
    const row = await db.selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const next = fold(() => evolveSettings({ registrationEnabled: row.registration_enabled, entryInsertionEnabled: row.entry_insertion_enabled }, events));
    await db.updateTable('settings').where('id', '=', 1).set({
      registration_enabled: next.registrationEnabled,
      entry_insertion_enabled: next.entryInsertionEnabled,
      updated_at: new Date(),
    }).execute();
  },
};
