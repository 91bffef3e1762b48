/**
 * The payer's choice of country and bank on the fee form, kept for the browser tab
 * (sessionStorage): a payer who comes back from a failed payment ("Try again") finds the same
 * bank chosen.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface PayChoiceState {
  /** The chosen country's code (ISO 3166-1 alpha-2); null until the payer chooses one. */
  country: string | null;
  /** The chosen bank's code; null when none is chosen. */
  methodCode: string | null;
  /** Chooses a country; the bank choice goes with it (banks belong to one country). */
  chooseCountry: (country: string) => void;
  chooseMethod: (code: string) => void;
}

export const usePayChoiceStore = create<PayChoiceState>()(
  persist(
    (set, get) => ({
      country: null,
      methodCode: null,
      chooseCountry: (country) => {
        if (country !== get().country) set({ country, methodCode: null });
      },
      chooseMethod: (methodCode) => set({ methodCode }),
    }),
    {
      name: 'sinilill-pay-choice',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ country, methodCode }) => ({ country, methodCode }),
    },
  ),
);
