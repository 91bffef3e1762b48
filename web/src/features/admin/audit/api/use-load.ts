import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCodeOf } from '../../../../lib/api-client';
import type { CatalogueCode } from '../../../../lib/errors/catalogue';

export type LoadState<T> =
  | { status: 'idle' }
  /** `previous`: the last data loaded, kept on screen while the next arrives. */
  | { status: 'loading'; previous?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; code: CatalogueCode };

/**
 * One read the audit makes on request (a history page, a timeline, a team's figures): its state,
 * `load` and `reset`. A new `load` aborts the one under way, so the last asked always wins;
 * unmounting aborts too. `load` resolves once the state is set (never rejects).
 */
export function useLoad<T>() {
  const [state, setState] = useState<LoadState<T>>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const load = useCallback(async (read: (signal: AbortSignal) => Promise<T>): Promise<void> => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState((before) => ({ status: 'loading', previous: lastData(before) }));
    try {
      const data = await read(current.signal);
      if (!current.signal.aborted) setState({ status: 'ready', data });
    } catch (error) {
      if (!current.signal.aborted) setState({ status: 'error', code: errorCodeOf(error) });
    }
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    setState({ status: 'idle' });
  }, []);

  return { state, load, reset };
}

/** The data a state shows: loaded, or kept from before while loading. */
export function lastData<T>(state: LoadState<T>): T | undefined {
  if (state.status === 'ready') return state.data;
  return state.status === 'loading' ? state.previous : undefined;
}
