import { useCallback, useEffect, useState } from 'react';
import { errorCodeOf } from './api-client';
import type { CatalogueCode } from './errors/catalogue';

/** A read's progress: loading, its answer, or the catalogue code of its failure. */
export type Fetched<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; code: CatalogueCode };

/**
 * A read a page shows (a GET of spec §7), loaded when the page mounts: runs `fetcher` once per
 * mount, and again on `reload()` (a try-again button), showing loading meanwhile; aborts it on
 * unmount. `fetcher` must keep its identity (a module-level function), or it runs on every
 * render. useStats, the pay page's reads and the history's account e-mails are written on it.
 */
export function useFetched<T>(fetcher: (signal: AbortSignal) => Promise<T>): Fetched<T> & { reload: () => void } {
  const [state, setState] = useState<Fetched<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetcher(controller.signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', code: errorCodeOf(error) });
      },
    );
    return () => controller.abort();
  }, [fetcher, attempt]);
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((previous) => previous + 1);
  }, []);
  return { ...state, reload };
}
