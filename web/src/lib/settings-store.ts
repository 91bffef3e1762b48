/**
 * The global switches (spec §4: registration and entry insertion are each globally switchable),
 * loaded once per page load from GET /api/settings and shared by the top bar and the pages.
 */
import type { SettingsAnswer } from '@sinilill/contracts';
import { create } from 'zustand';
import { apiGet, errorCodeOf } from './api-client';

interface SettingsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The switches; null until loaded (and after a failure). */
  settings: SettingsAnswer | null;
  /** Loads the switches unless they are loaded or loading; after a failure, tries again. */
  load: () => void;
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  status: 'idle',
  settings: null,
  load: () => {
    const { status } = get();
    if (status === 'loading' || status === 'ready') return;
    set({ status: 'loading' });
    apiGet<SettingsAnswer>('/settings').then(
      (settings) => set({ status: 'ready', settings }),
      (error: unknown) => {
        // Unknown switches count as off: /register stays empty rather than offering a form the
        // server may refuse.
        console.warn('GET /api/settings failed:', errorCodeOf(error));
        set({ status: 'error', settings: null });
      },
    );
  },
}));

/** True once the settings say registration is open (spec §2: otherwise /register shows nothing). */
export function selectRegistrationEnabled(state: SettingsState): boolean {
  return state.settings?.registrationEnabled === true;
}
