import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors/catalogue';
import styles from './form.module.css';

/**
 * A red error alert (spec §8: messages are shown in a red alert) or a green success alert.
 * Errors are announced at once (role="alert"), successes politely (role="status"). `live={false}`
 * leaves the role out, for an alert shown inside a live region that is always on the page (a
 * region added together with its text is often not announced).
 */
export function Alert({ variant, children, live = true }: { variant: 'error' | 'success'; children: ReactNode; live?: boolean }) {
  return (
    <div
      className={variant === 'error' ? styles.alertError : styles.alertSuccess}
      role={live ? (variant === 'error' ? 'alert' : 'status') : undefined}
      data-testid={variant === 'error' ? 'alert-error' : 'alert-success'}
    >
      {children}
    </div>
  );
}

/** The catalogue text of `code` (spec §8; unknown codes show GENERIC_ERROR) in a red alert. */
export function ErrorAlert({ code }: { code: string }) {
  const { t } = useTranslation();
  return <Alert variant="error">{errorText(t, code)}</Alert>;
}
