import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import formStyles from '../../../components/ui/form/form.module.css';
import { checkConfirmation, checkNewPassword, type FieldProblems, limits, problemFields } from '../../../lib/form-validation';
import { useAction } from '../../../lib/use-action';
import { changePassword } from '../api/change-password';
import styles from './account.module.css';

/** Spec §9: the password-change success alert stays 5 s. */
export const SUCCESS_ALERT_MS = 5000;

type PasswordField = 'currentPassword' | 'newPassword' | 'confirmation';
const FIELDS = ['currentPassword', 'newPassword', 'confirmation'] as const;
const EMPTY = { currentPassword: '', newPassword: '', confirmation: '' };

/**
 * Current password, new password, confirmation (spec §2 "Account", §5: NEW_PASSWORDS_DONT_MATCH
 * before sending; a wrong current password is INVALID_PASSWORD from the server). Success clears
 * the fields and shows a green alert for 5 s.
 */
export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY);
  const [problems, setProblems] = useState<FieldProblems<PasswordField>>({});
  const [showSuccess, setShowSuccess] = useState(false);
  const action = useAction(changePassword);

  useEffect(() => {
    if (!showSuccess) return;
    const timer = setTimeout(() => setShowSuccess(false), SUCCESS_ALERT_MS);
    return () => clearTimeout(timer);
  }, [showSuccess]);

  const check = (next: typeof values): FieldProblems<PasswordField> => ({
    currentPassword: next.currentPassword === '' ? { kind: 'required' } : undefined,
    newPassword: checkNewPassword(next.newPassword),
    confirmation: checkConfirmation(next.newPassword, next.confirmation, 'NEW_PASSWORDS_DONT_MATCH'),
  });

  const change = (field: PasswordField) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (Object.values(problems).some(Boolean)) setProblems(check(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setShowSuccess(false);
    const found = check(values);
    setProblems(found);
    const first = problemFields(FIELDS, found)[0];
    if (first) {
      focusField(formRef.current, first);
      return;
    }
    const outcome = await action.run({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    if (outcome.ok) {
      setValues(EMPTY);
      setShowSuccess(true);
    }
  };

  return (
    <section className={styles.section} aria-labelledby="change-password-heading">
      <h2 id="change-password-heading" className={styles.heading}>
        {t('changePassword.heading')}
      </h2>
      <form ref={formRef} className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="change-password-heading">
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        {showSuccess && <Alert variant="success">{t('changePassword.success')}</Alert>}
        <TextField
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          label={t('changePassword.current')}
          value={values.currentPassword}
          onChange={change('currentPassword')}
          problem={problems.currentPassword}
        />
        <TextField
          name="newPassword"
          type="password"
          autoComplete="new-password"
          label={t('changePassword.new')}
          hint={t('changePassword.newHint', { min: limits.passwordMin })}
          value={values.newPassword}
          onChange={change('newPassword')}
          problem={problems.newPassword}
        />
        <TextField
          name="confirmation"
          type="password"
          autoComplete="new-password"
          label={t('changePassword.confirmation')}
          value={values.confirmation}
          onChange={change('confirmation')}
          problem={problems.confirmation}
        />
        <div className={formStyles.actions}>
          <SubmitButton pending={action.pending} testId="change-password-submit">
            {t('changePassword.submit')}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
