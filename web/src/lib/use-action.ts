import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCodeOf } from './api-client';
import type { CatalogueCode } from './errors/catalogue';

export type ActionState<T> =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'success'; result: T }
  | { status: 'error'; code: CatalogueCode };

export type ActionOutcome<T> = { ok: true; result: T } | { ok: false; code: CatalogueCode | null };

/**
 * A call made on the user's request (a form submission): its state, `run` and `reset`. `run`
 * resolves to the outcome (never rejects); a second `run` while one is pending is ignored
 * (outcome `{ ok: false, code: null }`), so a double click submits once.
 */
export function useAction<Args extends unknown[], T>(call: (...args: Args) => Promise<T>) {
  const [state, setState] = useState<ActionState<T>>({ status: 'idle' });
  const pending = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (...args: Args): Promise<ActionOutcome<T>> => {
      if (pending.current) return { ok: false, code: null };
      pending.current = true;
      setState({ status: 'pending' });
      try {
        const result = await call(...args);
        if (mounted.current) setState({ status: 'success', result });
        return { ok: true, result };
      } catch (error) {
        const code = errorCodeOf(error);
        if (mounted.current) setState({ status: 'error', code });
        return { ok: false, code };
      } finally {
        pending.current = false;
      }
    },
    [call],
  );

  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, run, reset, pending: state.status === 'pending' };
}
