import type { Entry } from '@sinilill/contracts';
import { create } from 'zustand';
import { ALERT_MS } from '../../../lib/use-timed-value';

/** The add/edit entry dialog: closed, adding, or editing one entry. */
export type EntryDialogState = null | { mode: 'add' } | { mode: 'edit'; entry: Entry };

/** A short message about the entries (added, saved, deleted, or why not), shown for ALERT_MS. */
export type EntriesNotice = { id: number; variant: 'success'; text: string } | { id: number; variant: 'error'; code: string };

type NoticeInput = { variant: 'success'; text: string } | { variant: 'error'; code: string };

/** UI state of the team page shared by its parts (the add button, the table's pencils, the dialog). */
interface TeamUiState {
  dialog: EntryDialogState;
  notice: EntriesNotice | null;
  openAddEntry: () => void;
  openEditEntry: (entry: Entry) => void;
  closeDialog: () => void;
  /** Shows the notice for ALERT_MS (spec §9: 2000 ms); a newer one replaces it. */
  showNotice: (notice: NoticeInput) => void;
  /** Closes the dialog and drops the notice (leaving the page). */
  reset: () => void;
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined;
let noticeSeq = 0;

export const useTeamStore = create<TeamUiState>()((set, get) => ({
  dialog: null,
  notice: null,
  openAddEntry: () => set({ dialog: { mode: 'add' } }),
  openEditEntry: (entry) => set({ dialog: { mode: 'edit', entry } }),
  closeDialog: () => set({ dialog: null }),
  showNotice: (input) => {
    clearTimeout(noticeTimer);
    const id = ++noticeSeq;
    set({ notice: { ...input, id } });
    noticeTimer = setTimeout(() => {
      if (get().notice?.id === id) set({ notice: null });
    }, ALERT_MS);
  },
  reset: () => {
    clearTimeout(noticeTimer);
    set({ dialog: null, notice: null });
  },
}));
