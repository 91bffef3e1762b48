import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './form.module.css';

interface SubmitButtonProps {
  /** True while the form's request runs: the button is disabled and says "Sending…" (common `form.sending`). */
  pending: boolean;
  /** The label while idle. */
  children: ReactNode;
  testId: string;
  /** 'button' with `onClick` for an action without a form (the confirm page); default 'submit'. */
  type?: 'submit' | 'button';
  onClick?: () => void;
  /** Extra classes after the primary button style (e.g. formStyles.pushRight). */
  className?: string;
}

/** A form's primary button: disabled while its request is pending, labelled "Sending…" meanwhile. */
export function SubmitButton({ pending, children, testId, type = 'submit', onClick, className }: SubmitButtonProps) {
  const { t } = useTranslation('common');
  return (
    <button
      type={type}
      className={className ? `${styles.button} ${className}` : styles.button}
      disabled={pending}
      onClick={onClick}
      data-testid={testId}
    >
      {pending ? t('form.sending') : children}
    </button>
  );
}
