import { create } from 'zustand';
import { DEFAULT_SORT_ORDER, type SortOrder } from '../utils/sort-teams';

/** UI state of the home page; kept across navigations within the session. */
interface HomeUiState {
  /** Order of the top teams (spec §2: state 0, 1 or 2). */
  sortOrder: SortOrder;
  /** Mission whose close-up is open, or null. */
  openMissionId: number | null;
  /** Card shown by the small-screen carousel (an index into the top teams). */
  carouselIndex: number;
  setSortOrder: (order: SortOrder) => void;
  /** Opens the mission's close-up, or closes it when it is the open one (spec §2 "toggles"). */
  toggleMission: (missionId: number) => void;
  openMission: (missionId: number) => void;
  closeMission: () => void;
  setCarouselIndex: (index: number) => void;
}

export const useHomeStore = create<HomeUiState>()((set) => ({
  sortOrder: DEFAULT_SORT_ORDER,
  openMissionId: null,
  carouselIndex: 0,
  // A new order starts the carousel from its first card.
  setSortOrder: (sortOrder) => set({ sortOrder, carouselIndex: 0 }),
  toggleMission: (missionId) => set((s) => ({ openMissionId: s.openMissionId === missionId ? null : missionId })),
  openMission: (missionId) => set({ openMissionId: missionId }),
  closeMission: () => set({ openMissionId: null }),
  setCarouselIndex: (carouselIndex) => set({ carouselIndex }),
}));
