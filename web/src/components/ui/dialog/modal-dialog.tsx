import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CrossIcon } from '../icons';
import styles from './modal-dialog.module.css';

export interface ModalDialogProps {
  open: boolean;
  /** Asked to close: Escape, the close button (the owner sets `open` to false). */
  onClose: () => void;
  /** The heading, which names the dialog (aria-labelledby). */
  title: ReactNode;
  /** Rendered only while open, so a form inside starts afresh each time. */
  children: ReactNode;
  testId?: string;
}

/**
 * A modal dialog on the native `<dialog>` element (showModal): the browser traps the focus, makes
 * the page behind inert and closes on Escape. The focus moves into the dialog (to the control
 * marked `data-autofocus`, else the first one) and returns to the control that opened it when it
 * closes.
 */
export function ModalDialog({ open, onClose, title, children, testId }: ModalDialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // React's autoFocus runs before showModal, which then focuses the first control (the close
      // button); a control marked data-autofocus gets the focus instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
    if (!open && opener.current) {
      // The opener may have gone (a deleted row): then the focus stays where the browser puts it.
      if (opener.current.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  // Unmounted while open (the page went away): close, so the page is not left inert.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        // Escape: let React state close it, so that `open` stays the truth.
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className={styles.inner}>
          <div className={styles.header}>
            <h2 id={titleId} className={styles.title}>
              {title}
            </h2>
            <button type="button" className={styles.close} onClick={onClose} aria-label={t('dialog.close')}>
              <CrossIcon size={20} />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
