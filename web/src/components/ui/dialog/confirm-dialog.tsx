import type { ReactNode } from 'react';
import { ErrorAlert } from '../form/alert';
import formStyles from '../form/form.module.css';
import { ModalDialog } from './modal-dialog';
import styles from './modal-dialog.module.css';

export interface ConfirmDialogProps {
  open: boolean;
  /** Cancel, Escape or the close button (ignored while `pending`: the answer is on its way). */
  onCancel: () => void;
  onConfirm: () => void;
  title: ReactNode;
  /** What will happen, and what cannot be undone. */
  children: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  /** The confirmed action is under way: both buttons wait, the confirm button says so. */
  pending?: boolean;
  pendingLabel?: ReactNode;
  /** A refusal of the confirmed action: its catalogue text in a red alert, in the dialog. */
  errorCode?: string | null;
  /** The confirm button in the danger colour (deleting). */
  danger?: boolean;
  /** False when there is nothing left to confirm (e.g. the selected rows went meanwhile). */
  canConfirm?: boolean;
  /** The dialog's test id; the buttons get `${testId}-yes` and `${testId}-cancel`. */
  testId: string;
}

/**
 * A question before an action that cannot be undone, on the same modal as the forms
 * (ModalDialog: focus moves in, Escape cancels, focus returns to the button that opened it).
 * Cancel has the focus, so that Enter alone never confirms. Instead of `window.confirm`, which
 * speaks the browser's language, looks like no part of the site and drops the focus to the page.
 */
export function ConfirmDialog({
  open,
  onCancel,
  onConfirm,
  title,
  children,
  confirmLabel,
  cancelLabel,
  pending = false,
  pendingLabel,
  errorCode,
  danger = false,
  canConfirm = true,
  testId,
}: ConfirmDialogProps) {
  const cancel = () => {
    if (!pending) onCancel();
  };
  return (
    <ModalDialog open={open} onClose={cancel} title={title} testId={testId}>
      <div className={styles.body}>
        <div className={danger ? styles.warning : undefined}>{children}</div>
        {errorCode && <ErrorAlert code={errorCode} />}
        <div className={`${formStyles.actions} ${styles.actions}`}>
          <button type="button" className={formStyles.buttonSecondary} onClick={cancel} disabled={pending} data-autofocus data-testid={`${testId}-cancel`}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={danger ? `${formStyles.button} ${styles.danger}` : formStyles.button}
            onClick={onConfirm}
            disabled={pending || !canConfirm}
            aria-busy={pending}
            data-testid={`${testId}-yes`}
          >
            {pending && pendingLabel ? pendingLabel : confirmLabel}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
