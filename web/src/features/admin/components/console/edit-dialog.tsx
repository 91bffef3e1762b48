import type { FormEvent, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../../components/ui/dialog/modal-dialog';
import { ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import styles from './console.module.css';

export interface EditDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** An EditForm, keyed by the row it edits (rendered only while open). */
  children: ReactNode;
}

/**
 * The console's edit modal (spec §2 users' and teams' "edit modal"), test id `admin-edit-dialog`.
 * Stays mounted while closed, so that the focus returns to the row's pencil.
 */
export function EditDialog({ open, title, onClose, children }: EditDialogProps) {
  return (
    <ModalDialog open={open} onClose={onClose} title={title} testId="admin-edit-dialog">
      {children}
    </ModalDialog>
  );
}

export interface EditFormProps {
  /** The fields. */
  children: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  /** The save is under way: Save is disabled. */
  pending: boolean;
  /** A catalogue code (spec §8): the server's refusal or a file's problem, shown in a red alert. */
  errorCode: string | null;
  formRef?: Ref<HTMLFormElement>;
}

/**
 * An edit modal's form: the fields, a red alert, Cancel and Save (test id `admin-save`). The
 * caller checks the fields before sending (noValidate: the messages are the app's own).
 */
export function EditForm({ children, onSubmit, onCancel, pending, errorCode, formRef }: EditFormProps) {
  const { t } = useTranslation('admin');
  return (
    <form ref={formRef} className={formStyles.form} onSubmit={onSubmit} noValidate>
      {children}
      {errorCode !== null && <ErrorAlert code={errorCode} />}
      <div className={`${formStyles.actions} ${styles.dialogActions}`}>
        <button type="button" className={formStyles.buttonSecondary} onClick={onCancel}>
          {t('console.cancel')}
        </button>
        <button type="submit" className={formStyles.button} disabled={pending} aria-busy={pending} data-testid="admin-save">
          {pending ? t('console.saving') : t('console.save')}
        </button>
      </div>
    </form>
  );
}
