import type { Edition } from '@sinilill/domain';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { RegistrationBody } from '@sinilill/contracts';
import { useTranslation } from 'react-i18next';
import { EditionGate } from '../../../components/edition-gate';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import { RadioGroup, SelectField, SwitchField, TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import formStyles from '../../../components/ui/form/form.module.css';
import { formatEuros } from '../../../lib/format-money';
import { ApiError } from '../../../lib/api-client';
import { formatClockTime } from '../../../lib/format-date';
import { problemFields } from '../../../lib/form-validation';
import { isStrongPassword } from '../../../lib/password-strength';
import { toSpecLanguage } from '@sinilill/contracts';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { register } from '../api/register';
import {
  birthYears,
  checkStep,
  type DraftField,
  EMPTY_DRAFT,
  GENDERS,
  lengthProblems,
  type RegistrationDraft,
  STEPS,
  stepFields,
  toRegistrationBody,
} from '../utils/registration-form';
import styles from './registration.module.css';

const WEAK: { kind: 'code'; code: string } = { kind: 'code', code: 'PASSWORD_TOO_WEAK' };

/**
 * The three-step registration of spec §2: user-information, register-type, team-infromation.
 * Back on every step but the first; Next opens the next step once this one passes its checks
 * (the first step's password also the server's strength rule, POST /api/passwordstrength); the
 * last step's button registers. Success goes to /success; a refusal shows its catalogue message in
 * a red alert, a refused password goes back to the first step with the field marked, and a rate
 * limit says when to try again (Retry-After, Tallinn time). The limits, birth years and the company
 * fee are the site edition's; the form shows once it is known.
 */
export function RegistrationWizard() {
  return <EditionGate testId="register-edition">{(edition) => <WizardOf edition={edition} />}</EditionGate>;
}

function WizardOf({ edition }: { edition: Edition }) {
  const yearOptions = birthYears(edition.limits).map((year) => ({ value: String(year), label: String(year) }));
  const { t } = useTranslation('registration');
  const lang = useLang();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [stepIndex, setStepIndex] = useState(0);
  const [draft, setDraft] = useState<RegistrationDraft>(EMPTY_DRAFT);
  // Steps the visitor tried to leave: from then on their problems follow every keystroke.
  const [attempted, setAttempted] = useState<ReadonlySet<number>>(new Set());
  // The password the server's rule found too easy to guess (cleared by any change to it).
  const [weakPassword, setWeakPassword] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  // When a rate limit lets this address register again (from Retry-After).
  const [retryAt, setRetryAt] = useState<Date | null>(null);
  const send = useCallback(async (body: RegistrationBody) => {
    setRetryAt(null);
    try {
      return await register(body);
    } catch (error) {
      if (error instanceof ApiError && error.retryAfterSeconds !== null) setRetryAt(new Date(Date.now() + error.retryAfterSeconds * 1000));
      throw error;
    }
  }, []);
  const submission = useAction(send);
  const movedRef = useRef(false);

  const step = STEPS[stepIndex] ?? STEPS[0];
  const isLast = stepIndex === STEPS.length - 1;
  const checked = attempted.has(stepIndex) ? checkStep(step, draft) : lengthProblems(step, draft);
  const weak = step === 'user-information' && weakPassword !== null && weakPassword === draft.password && !checked.password;
  const problems = weak ? { ...checked, password: WEAK } : checked;

  // A new step: the focus goes to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (movedRef.current) headingRef.current?.focus();
  }, [stepIndex]);

  const set = <K extends keyof RegistrationDraft>(field: K) => (value: RegistrationDraft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));

  const goTo = (index: number) => {
    movedRef.current = true;
    setStepIndex(index);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted((current) => new Set(current).add(stepIndex));
    const found = checkStep(step, draft);
    const first = problemFields(stepFields(step, draft.type), found)[0];
    if (first) {
      focusField(formRef.current, first);
      return;
    }
    if (step === 'user-information') {
      if (checking) return;
      setChecking(true);
      const strong = await isStrongPassword({ password: draft.password, email: draft.email.trim(), full_name: draft.full_name.trim() });
      setChecking(false);
      if (strong === false) {
        setWeakPassword(draft.password);
        focusField(formRef.current, 'password');
        return;
      }
    }
    if (!isLast) {
      goTo(stepIndex + 1);
      return;
    }
    // The earlier steps passed when they were left; checked again in case (spec §5: the
    // passwords must match before submitting).
    for (const [index, earlier] of STEPS.entries()) {
      if (Object.keys(checkStep(earlier, draft)).length > 0) {
        setAttempted((current) => new Set(current).add(index));
        goTo(index);
        return;
      }
    }
    const outcome = await submission.run(toRegistrationBody(draft, toSpecLanguage(lang)));
    if (outcome.ok) void navigate({ to: '/success' });
    else if (outcome.code === 'PASSWORD_TOO_WEAK') {
      // Judged with the team name too, or the rule changed since step one: back to the field.
      submission.reset();
      setWeakPassword(draft.password);
      setAttempted((current) => new Set(current).add(0));
      goTo(0);
    }
  };

  const problem = (field: DraftField) => problems[field];

  return (
    <form ref={formRef} className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="registration-step-heading">
      <ol className={styles.progress} aria-label={t('progress')}>
        {STEPS.map((id, index) => (
          <li
            key={id}
            className={index === stepIndex ? styles.current : index < stepIndex ? styles.done : undefined}
            aria-current={index === stepIndex ? 'step' : undefined}
          >
            <span className={styles.stepNumber} aria-hidden="true">
              {index + 1}
            </span>
            <span className={styles.stepName}>{t(`steps.${id}`)}</span>
          </li>
        ))}
      </ol>

      {submission.state.status === 'error' && (submission.state.code === 'TOO_MANY_REQUESTS' && retryAt ? (
        <Alert variant="error">
          {t('tooMany', { time: formatClockTime(retryAt), count: Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 60_000)) })}
        </Alert>
      ) : <ErrorAlert code={submission.state.code} />)}

      <section id={step} className={styles.step} data-testid={`step-${step}`} data-step={step}>
        <p className={styles.stepOf}>{t('stepOf', { current: stepIndex + 1, total: STEPS.length })}</p>
        <h2 id="registration-step-heading" ref={headingRef} tabIndex={-1} className={styles.stepHeading}>
          {t(`steps.${step}`)}
        </h2>

        {step === 'user-information' && (
          <div className={formStyles.form}>
            <TextField name="email" type="email" autoComplete="email" label={t('fields.email')} value={draft.email} onChange={set('email')} problem={problem('email')} />
            <TextField name="full_name" autoComplete="name" label={t('fields.fullName')} value={draft.full_name} onChange={set('full_name')} problem={problem('full_name')} />
            <TextField
              name="password"
              type="password"
              autoComplete="new-password"
              label={t('fields.password')}
              hint={t('fields.passwordHint', { min: edition.limits.passwordMin })}
              value={draft.password}
              onChange={set('password')}
              problem={problem('password')}
            />
            <TextField
              name="password_confirmation"
              type="password"
              autoComplete="new-password"
              label={t('fields.passwordConfirmation')}
              value={draft.password_confirmation}
              onChange={set('password_confirmation')}
              problem={problem('password_confirmation')}
            />
            <div className={styles.pair}>
              <SelectField
                name="birth_year"
                autoComplete="bday-year"
                label={t('fields.birthYear')}
                placeholder={t('fields.chooseYear')}
                options={yearOptions}
                value={draft.birth_year}
                onChange={set('birth_year')}
                problem={problem('birth_year')}
              />
              <SelectField
                name="gender"
                label={t('fields.gender')}
                placeholder={t('fields.chooseGender')}
                options={GENDERS.map((gender) => ({ value: gender, label: t(`genders.${gender}`) }))}
                value={draft.gender}
                onChange={(value) => set('gender')(value as RegistrationDraft['gender'])}
                problem={problem('gender')}
              />
            </div>
            <p className={styles.haveAccount}>
              {t('haveAccount')} <Link to="/login">{t('logIn')}</Link>
            </p>
          </div>
        )}

        {step === 'register-type' && (
          <RadioGroup
            name="type"
            legend={t('type.legend')}
            value={draft.type}
            onChange={(value) => set('type')(value as RegistrationDraft['type'])}
            options={(['JOIN_TEAM', 'REGISTER_TEAM'] as const).map((type) => ({
              value: type,
              label: t(`type.options.${type}.label`),
              description: t(`type.options.${type}.description`),
            }))}
            problem={problem('type')}
          />
        )}

        {step === 'team-infromation' && (
          <div className={formStyles.form}>
            {draft.type === 'REGISTER_TEAM' ? (
              <>
                <TextField
                  name="team_name"
                  autoComplete="off"
                  label={t('fields.teamName')}
                  hint={t('fields.teamNameHint')}
                  value={draft.team_name}
                  onChange={set('team_name')}
                  problem={problem('team_name')}
                />
                {/* a company team pays the company fee per person (spec §9). */}
                <div data-testid="registration-company">
                  <SwitchField
                    name="company"
                    label={t('fields.company', { amount: formatEuros(edition.fees.companyPerPersonCents, lang) })}
                    checked={draft.company === true}
                    onChange={set('company')}
                  />
                  <p className={formStyles.hint}>{t('fields.companyHint')}</p>
                </div>
              </>
            ) : (
              <TextField
                name="team_join_code"
                autoComplete="off"
                label={t('fields.joinCode')}
                hint={t('fields.joinCodeHint')}
                value={draft.team_join_code}
                onChange={set('team_join_code')}
                problem={problem('team_join_code')}
              />
            )}
            <SwitchField name="newsletter" label={t('fields.newsletter')} checked={draft.newsletter} onChange={set('newsletter')} />
          </div>
        )}
      </section>

      <div className={formStyles.actions}>
        {stepIndex > 0 && (
          <button type="button" className={formStyles.buttonSecondary} onClick={() => goTo(stepIndex - 1)} data-testid="wizard-back">
            {t('back')}
          </button>
        )}
        {isLast ? (
          <SubmitButton pending={submission.pending} className={formStyles.pushRight} testId="wizard-submit">
            {t('submit')}
          </SubmitButton>
        ) : (
          <button type="submit" className={`${formStyles.button} ${formStyles.pushRight}`} data-testid="wizard-next" aria-busy={checking || undefined}>
            {t('next')}
          </button>
        )}
      </div>
    </form>
  );
}
