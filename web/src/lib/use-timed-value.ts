import { useCallback, useEffect, useRef, useState } from 'react';

/** How long image and admin alerts stay (spec §9: 2000 ms). */
export const ALERT_MS = 2_000;

/**
 * A value that clears itself `durationMs` after it was set (an alert, a "copied" tick). Setting
 * it again restarts the time. Returns the value, the setter and an immediate clear.
 */
export function useTimedValue<T>(durationMs: number = ALERT_MS): [T | null, (value: T) => void, () => void] {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (next: T) => {
      clearTimeout(timer.current);
      setValue(next);
      timer.current = setTimeout(() => setValue(null), durationMs);
    },
    [durationMs],
  );
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setValue(null);
  }, []);
  return [value, show, clear];
}
