import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errors/catalogue';
import styles from './form.module.css';

/**
 * A red error alert (spec §8: messages are shown in a red alert) or a green success alert.
 * Errors are announced at once (role="alert"), successes politely (role="status").
 */
export function Alert({ variant, children }: { variant: 'error' | 'success'; children: ReactNode }) {
  return (
    <div
      className={variant === 'error' ? styles.alertError : styles.alertSuccess}
      role={variant === 'error' ? 'alert' : 'status'}
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
