import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../components/ui/dialog/modal-dialog';
import dialogStyles from '../../../components/ui/dialog/modal-dialog.module.css';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { TextField } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { useSessionStore } from '../../../lib/session-store';
import { useAction } from '../../../lib/use-action';
import { eraseMyAccount } from '../api/my-data';
import { useErasureStore } from '../stores/erasure-store';

export interface EraseAccountDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * "Delete my account": says what goes and what stays (the team keeps the km,
 * without the name), asks for the password, and erases. A modal dialog (ModalDialog: labelled by
 * its heading, focus kept inside, Escape closes); Cancel has the focus first, so Enter alone never
 * erases. After the erasure the session is over: the store forgets it and the account page says
 * the account was deleted.
 */
export function EraseAccountDialog({ open, onClose }: EraseAccountDialogProps) {
  const { t } = useTranslation('account');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const erase = useAction(eraseMyAccount);
  const markErased = useErasureStore((s) => s.markErased);

  const close = () => {
    if (erase.pending) return;
    setPassword('');
    setMissing(false);
    erase.reset();
    onClose();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password === '') {
      setMissing(true);
      return;
    }
    const outcome = await erase.run(password);
    if (outcome.ok) {
      markErased();
      useSessionStore.getState().clear();
    }
  };

  return (
    <ModalDialog open={open} onClose={close} title={t('myData.dialogTitle')} testId="erase-dialog">
      <form className={dialogStyles.body} noValidate onSubmit={(event) => void onSubmit(event)} aria-describedby="erase-dialog-warning">
        <div className={dialogStyles.warning} id="erase-dialog-warning">
          <p>{t('myData.dialogWarning')}</p>
          <p>{t('myData.dialogKm')}</p>
        </div>
        {erase.state.status === 'error' && <ErrorAlert code={erase.state.code} />}
        <TextField
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('myData.password')}
          value={password}
          onChange={(value) => {
            setPassword(value);
            if (value !== '') setMissing(false);
          }}
          problem={missing ? { kind: 'required' } : undefined}
        />
        <div className={`${formStyles.actions} ${dialogStyles.actions}`}>
          <button type="button" className={formStyles.buttonSecondary} onClick={close} disabled={erase.pending} data-autofocus data-testid="erase-dialog-cancel">
            {t('myData.cancel')}
          </button>
          <button type="submit" className={`${formStyles.button} ${dialogStyles.danger}`} disabled={erase.pending} aria-busy={erase.pending} data-testid="erase-dialog-yes">
            {t('myData.confirm')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
