import { create } from 'zustand';
import type { EditionView } from '../../../lib/edition';

/** What the join answered: the edition joined, the new team, its join code, whether last year's team was re-opened. */
export interface Joined {
  edition: EditionView;
  teamId: number;
  joinCode: string | null;
  reopened: boolean;
}

/**
 * The edition this tab's user has just joined, for the page that follows the join (the join
 * code, the invitation of last year's members, the way to pay). Outside the component so that a
 * re-render of the page from the renewed session does not lose it; kept for the user who joined
 * (another login in the tab does not see it) until the page is loaded again.
 */
interface JoinedState {
  joined: (Joined & { userId: string }) | null;
  markJoined: (userId: string, joined: Joined) => void;
}

export const useJoinedStore = create<JoinedState>()((set) => ({
  joined: null,
  markJoined: (userId, joined) => set({ joined: { ...joined, userId } }),
}));
