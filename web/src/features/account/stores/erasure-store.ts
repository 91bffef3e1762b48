import { create } from 'zustand';

/**
 * Whether this tab's user has just erased their own account: the account page
 * then says so instead of asking them to log in. Kept until the page is loaded again.
 */
interface ErasureState {
  erased: boolean;
  markErased: () => void;
}

export const useErasureStore = create<ErasureState>()((set) => ({
  erased: false,
  markErased: () => set({ erased: true }),
}));
