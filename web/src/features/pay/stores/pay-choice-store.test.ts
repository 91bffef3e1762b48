import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh store over a Map-backed sessionStorage (unit tests run in Node, which has none). */
async function load(initial: Record<string, string> = {}) {
  vi.resetModules();
  const data = new Map(Object.entries(initial));
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  });
  const { usePayChoiceStore } = await import('./pay-choice-store');
  return { usePayChoiceStore, data };
}

describe('pay choice store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('given a bank is chosen, when another country is chosen, then the bank choice goes', async () => {
    const { usePayChoiceStore } = await load();
    usePayChoiceStore.getState().chooseCountry('EE');
    usePayChoiceStore.getState().chooseMethod('swedbank');
    usePayChoiceStore.getState().chooseCountry('EE');
    expect(usePayChoiceStore.getState()).toMatchObject({ country: 'EE', methodCode: 'swedbank' });
    usePayChoiceStore.getState().chooseCountry('LV');
    expect(usePayChoiceStore.getState()).toMatchObject({ country: 'LV', methodCode: null });
  });

  it('keeps the choice for the tab: a page loaded again (back from the provider) finds it', async () => {
    const first = await load();
    first.usePayChoiceStore.getState().chooseMethod('seb');
    const stored = Object.fromEntries(first.data);
    const again = await load(stored);
    expect(again.usePayChoiceStore.getState()).toMatchObject({ country: null, methodCode: 'seb' });
  });
});
