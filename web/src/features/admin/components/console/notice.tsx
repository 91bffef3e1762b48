import { useCallback } from 'react';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import { ALERT_MS, useTimedValue } from '../../../../lib/use-timed-value';
import styles from './console.module.css';

/** A message after an admin action: green with a text, or red with a catalogue code (spec §8). */
export type AdminNotice = { variant: 'success'; text: string } | { variant: 'error'; code: string };

/** A tab's notice and how to show one. */
export interface NoticeHandle {
  notice: AdminNotice | null;
  /** Shows a green alert with `text` for ALERT_MS (spec §9: 2000 ms for admin actions). */
  success: (text: string) => void;
  /** Shows the catalogue text of `code` in a red alert for ALERT_MS. */
  failure: (code: string) => void;
  /** Hides the notice now (a dialog opens: an old message must not pass for the next one's). */
  clear: () => void;
}

/** A tab's notice: one at a time, a newer one replaces it (and restarts the 2 s). */
export function useNotice(): NoticeHandle {
  const [notice, show, clear] = useTimedValue<AdminNotice>(ALERT_MS);
  const success = useCallback((text: string) => show({ variant: 'success', text }), [show]);
  const failure = useCallback((code: string) => show({ variant: 'error', code }), [show]);
  return { notice, success, failure, clear };
}

/**
 * The tab's notice, stuck to the bottom of the window so that it is seen from any row (test ids
 * `alert-success` / `alert-error` from Alert). Renders nothing without a notice.
 */
export function NoticeBar({ notice }: { notice: AdminNotice | null }) {
  if (!notice) return null;
  return (
    <div className={styles.noticeBar}>
      {notice.variant === 'success' ? <Alert variant="success">{notice.text}</Alert> : <ErrorAlert code={notice.code} />}
    </div>
  );
}
