import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel, panelStyles } from '../../../components/ui/panel';
import { checkEmail, checkText, type FieldProblems, formLimits, problemFields } from '../../../lib/form-validation';
import { toSpecLanguage } from '@sinilill/contracts';
import { isPaidNow, loadPaymentInfo } from '../../../lib/payment-info';
import { useSessionStore } from '../../../lib/session-store';
import { selectRegistrationEnabled, useSettings } from '../../../lib/settings';
import { useAction } from '../../../lib/use-action';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { login } from '../api/login';
import { requestPasswordReset } from '../api/request-password-reset';

/** /login (spec §2): the login form, or with `?type=forgot` the forgot-password form. */
export function LoginPage({ forgot }: { forgot: boolean }) {
  return forgot ? <ForgotForm /> : <LoginForm />;
}

/** The link that switches between the two forms (same route, `type=forgot` or none). */
function ForgotToggle({ toForgot, children }: { toForgot: boolean; children: string }) {
  return (
    <Link to="/login" search={toForgot ? { type: 'forgot' } : {}} data-testid="forgot-toggle">
      {children}
    </Link>
  );
}

type LoginField = 'email' | 'password';

/**
 * Email and password. Success stores the token, fetches the payment info and goes to /team when
 * it says the fee is paid, else to /pay (spec §2); when the info cannot be fetched, the token's
 * isPaid claim decides. An account without a participant (an administrator created from
 * ADMIN_EMAIL) has no fee: it goes to /admin.
 */
function LoginForm() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('login.title'));
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ email: '', password: '' });
  const [problems, setProblems] = useState<FieldProblems<LoginField>>({});
  const [sessionError, setSessionError] = useState(false);
  const storeToken = useSessionStore((s) => s.login);
  const registrationEnabled = selectRegistrationEnabled(useSettings());
  const action = useAction(login);

  const check = (next: typeof values): FieldProblems<LoginField> => {
    const found: FieldProblems<LoginField> = {
      email: checkText(next.email, { max: formLimits()?.emailMax }),
      password: next.password === '' ? { kind: 'required' } : undefined,
    };
    return found;
  };

  const change = (field: LoginField) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // After a refused attempt the problems follow the typing.
    if (Object.values(problems).some(Boolean)) setProblems(check(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSessionError(false);
    const found = check(values);
    setProblems(found);
    const first = problemFields(['email', 'password'] as const, found)[0];
    if (first) {
      focusField(formRef.current, first);
      return;
    }
    const outcome = await action.run({ email: values.email.trim(), password: values.password });
    if (!outcome.ok) return;
    if (!storeToken(outcome.result.token)) {
      setSessionError(true);
      return;
    }
    const identity = useSessionStore.getState().identity;
    // An account without a participant (an administrator) has no fee and no team: the console.
    if (identity.participantId === null) {
      void navigate({ to: identity.isAdmin ? '/admin' : '/' });
      return;
    }
    const info = await loadPaymentInfo();
    void navigate({ to: isPaidNow(info, identity) ? '/team' : '/pay' });
  };

  return (
    <Panel heading={t('login.title')} headingId="login-heading" testId="login-page">
      <form ref={formRef} className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="login-heading">
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        {sessionError && <ErrorAlert code="GENERIC_ERROR" />}
        <TextField name="email" type="email" autoComplete="username" label={t('login.email')} value={values.email} onChange={change('email')} problem={problems.email} />
        <TextField
          name="password"
          type="password"
          autoComplete="current-password"
          label={t('login.password')}
          value={values.password}
          onChange={change('password')}
          problem={problems.password}
        />
        <div className={formStyles.actions}>
          <SubmitButton pending={action.pending} testId="login-submit">
            {t('login.submit')}
          </SubmitButton>
          <span className={formStyles.pushRight}>
            <ForgotToggle toForgot>{t('login.forgot')}</ForgotToggle>
          </span>
        </div>
      </form>
      {registrationEnabled && (
        <div className={panelStyles.footer}>
          <p>
            {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
          </p>
        </div>
      )}
    </Panel>
  );
}

/**
 * Email only (spec §2): on success the error is cleared, the form emptied and a message says the
 * email was sent.
 */
function ForgotForm() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('forgot.title'));
  const lang = useLang();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [problems, setProblems] = useState<FieldProblems<'email'>>({});
  const action = useAction(requestPasswordReset);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = { email: checkEmail(email) };
    setProblems(found);
    if (found.email) {
      focusField(formRef.current, 'email');
      return;
    }
    const outcome = await action.run({ email: email.trim(), lang: toSpecLanguage(lang) });
    if (outcome.ok) {
      setEmail('');
      setProblems({});
    }
  };

  return (
    <Panel heading={t('forgot.title')} headingId="forgot-heading" testId="forgot-page">
      <p className={panelStyles.lead}>{t('forgot.intro')}</p>
      <form ref={formRef} className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="forgot-heading">
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        {action.state.status === 'success' && <Alert variant="success">{t('forgot.sent')}</Alert>}
        <TextField
          name="email"
          type="email"
          autoComplete="email"
          label={t('forgot.email')}
          value={email}
          onChange={(value) => {
            setEmail(value);
            if (problems.email) setProblems({ email: checkEmail(value) });
          }}
          problem={problems.email}
        />
        <div className={formStyles.actions}>
          <SubmitButton pending={action.pending} testId="forgot-submit">
            {t('forgot.submit')}
          </SubmitButton>
          <span className={formStyles.pushRight}>
            <ForgotToggle toForgot={false}>{t('forgot.back')}</ForgotToggle>
          </span>
        </div>
      </form>
    </Panel>
  );
}
