import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel } from '../../../components/ui/panel';
import { checkConfirmation, checkNewPassword, type FieldProblems, passwordMin, problemFields } from '../../../lib/form-validation';
import { isStrongPassword } from '../../../lib/password-strength';
import { useAction } from '../../../lib/use-action';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { resetPassword } from '../api/reset-password';

type ResetField = 'password' | 'password_confirmation';

export interface PasswordResetPageProps {
  /** The link's token and user id: /passwordreset/{token}/{id}. */
  token: string;
  id: string;
  /** `?type=success`: the password was set. */
  success: boolean;
}

/**
 * /passwordreset/{token}/{id} (spec §2): a new password and its confirmation (PASSWORDS_DONT_MATCH,
 * PASSWORD_TOO_SHORT before sending); success (also `?type=success`) shows a message and a link
 * to /login.
 */
export function PasswordResetPage({ token, id, success }: PasswordResetPageProps) {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('reset.title'));
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ password: '', password_confirmation: '' });
  const [problems, setProblems] = useState<FieldProblems<ResetField>>({});
  const action = useAction(resetPassword);

  const check = (next: typeof values): FieldProblems<ResetField> => ({
    password: checkNewPassword(next.password),
    password_confirmation: checkConfirmation(next.password, next.password_confirmation, 'PASSWORDS_DONT_MATCH'),
  });

  const change = (field: ResetField) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (Object.values(problems).some(Boolean)) setProblems(check(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = check(values);
    setProblems(found);
    const first = problemFields(['password', 'password_confirmation'] as const, found)[0];
    if (first) {
      focusField(formRef.current, first);
      return;
    }
    // The server's strength rule before sending (it judges again, with the account's name and e-mail).
    if ((await isStrongPassword({ password: values.password })) === false) {
      setProblems({ password: { kind: 'code', code: 'PASSWORD_TOO_WEAK' } });
      focusField(formRef.current, 'password');
      return;
    }
    const outcome = await action.run({ userId: id, token, newPassword: values.password });
    if (!outcome.ok && outcome.code === 'PASSWORD_TOO_WEAK') {
      action.reset();
      setProblems({ password: { kind: 'code', code: 'PASSWORD_TOO_WEAK' } });
      focusField(formRef.current, 'password');
    }
    if (outcome.ok) {
      setValues({ password: '', password_confirmation: '' });
      // The success view has an address of its own (spec §2: `type=success`); a reload keeps it.
      void navigate({ to: '/passwordreset/$token/$id', params: { token, id }, search: { type: 'success' }, replace: true });
    }
  };

  if (success) {
    return (
      <Panel heading={t('reset.title')} headingId="reset-heading" testId="reset-success">
        <Alert variant="success">{t('reset.success')}</Alert>
        <p className={formStyles.actions}>
          <Link to="/login" className={formStyles.button}>
            {t('reset.logIn')}
          </Link>
        </p>
      </Panel>
    );
  }

  return (
    <Panel heading={t('reset.title')} headingId="reset-heading" testId="reset-page">
      <form ref={formRef} className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="reset-heading">
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        <TextField
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('reset.newPassword')}
          hint={t('reset.passwordHint', { min: passwordMin() })}
          value={values.password}
          onChange={change('password')}
          problem={problems.password}
        />
        <TextField
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          label={t('reset.confirmation')}
          value={values.password_confirmation}
          onChange={change('password_confirmation')}
          problem={problems.password_confirmation}
        />
        <div className={formStyles.actions}>
          <SubmitButton pending={action.pending} testId="reset-submit">
            {t('reset.submit')}
          </SubmitButton>
        </div>
      </form>
    </Panel>
  );
}
