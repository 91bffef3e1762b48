import type { CertificateAnswer } from '@sinilill/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { queryKeys } from '../../../lib/query-client';
import { useFetched } from '../../../lib/use-fetched';
import { useNumberFormat } from '../../../lib/use-number-format';
import { verifyCertificate } from '../api/verify-certificate';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './verify-page.module.css';

/**
 * /verify and /verify/{code}, public: where a certificate's QR code leads, and
 * where a code read off a printed certificate is typed. Says whether the code is genuine and shows
 * what it certifies, recomputed now (name, team, km, the team's blue flowers and missions, the
 * edition's dates); a forged, mistyped or erased person's code gets the catalogue's
 * CERTIFICATE_NOT_VALID and no name. A labelled field (with the code of the address in it, to
 * correct) checks another code by going to its address, so a result can be shared as a link.
 */
export function VerifyPage({ code }: { code?: string }) {
  const { t } = useTranslation('certificates');
  useDocumentTitle(t('verify.title'));
  return (
    <Panel heading={t('verify.title')} headingId="verify-heading" testId="verify-page" wide>
      {code === undefined ? <p>{t('verify.intro')}</p> : <Verdict code={code} />}
      <CodeForm code={code ?? ''} />
      <p>
        <Link to="/">{t('verify.home')}</Link>
      </p>
    </Panel>
  );
}

/** What the server says of `code`: the figures, or why not. */
function Verdict({ code }: { code: string }) {
  const { t } = useTranslation('certificates');
  const fetcher = useCallback((signal: AbortSignal) => verifyCertificate(code, signal), [code]);
  const state = useFetched(queryKeys.certificate(code), fetcher);
  return (
    <div>
      {state.status === 'loading' && <Spinner label={t('verify.loading')} color="var(--brand)" />}
      {state.status === 'error' && (
        <div data-testid="verify-refused">
          <ErrorAlert code={state.code} />
          {state.code === 'CERTIFICATE_NOT_VALID' ? (
            <p>{t('verify.invalidHelp')}</p>
          ) : (
            <button type="button" className={formStyles.buttonSecondary} onClick={state.reload}>
              {t('verify.retry')}
            </button>
          )}
        </div>
      )}
      {state.status === 'ready' && <Certified figures={state.data} />}
    </div>
  );
}

/** The code field and its button: an empty field says where the code is; anything else goes to /verify/{code}. */
function CodeForm({ code }: { code: string }) {
  const { t } = useTranslation('certificates');
  const navigate = useNavigate();
  const id = useId();
  const [value, setValue] = useState(code);
  const [missing, setMissing] = useState(false);
  const problemId = `${id}-problem`;
  const hintId = `${id}-hint`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Spaces are how people copy a code in groups; the server reads it without them.
    const typed = value.replace(/\s+/g, '');
    if (typed === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    void navigate({ to: '/verify/$code', params: { code: typed } });
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate data-testid="verify-form">
      <div className={formStyles.field}>
        <label htmlFor={id} className={formStyles.label}>
          {code === '' ? t('verify.field') : t('verify.fieldAnother')}
        </label>
        <input
          id={id}
          name="code"
          className={`${formStyles.input} ${styles.codeInput}`}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={missing}
          aria-describedby={missing ? `${problemId} ${hintId}` : hintId}
          data-testid="verify-input"
        />
        <p id={hintId} className={formStyles.hint}>{t('verify.fieldHint')}</p>
        {missing && (
          <p id={problemId} className={formStyles.problem} data-testid="verify-missing">
            {t('verify.fieldMissing')}
          </p>
        )}
      </div>
      <button type="submit" className={formStyles.button} data-testid="verify-submit">
        {t('verify.submit')}
      </button>
    </form>
  );
}

function Certified({ figures }: { figures: CertificateAnswer }) {
  const { t } = useTranslation('certificates');
  const format = useNumberFormat();
  const team = figures.kind === 'team';
  const rows: [string, string, string][] = [
    [team ? 'team' : 'participant', team ? t('verify.team') : t('verify.participant'), figures.name],
    ...(team ? [] : [['team-name', t('verify.team'), figures.team_name] as [string, string, string]]),
    ['distance', team ? t('verify.teamDistance') : t('verify.distance'), t('verify.km', { value: format(figures.distance, 2) })],
    ['flowers', t('verify.flowers'), format(figures.blueFlowers)],
    ['missions', t('verify.missions'), format(figures.missions)],
    ['dates', t('verify.dates'), t('verify.datesValue', {
      startDay: Number(figures.edition.startDate.slice(8, 10)), endDay: Number(figures.edition.endDate.slice(8, 10)), year: figures.edition.year,
    })],
  ];
  return (
    <div data-testid="verify-valid">
      <Alert variant="success">{t('verify.valid')}</Alert>
      <dl className={styles.figures}>
        {rows.map(([id, label, value]) => (
          <div key={id} className={styles.row}>
            <dt>{label}</dt>
            <dd data-testid={`verify-${id}`}>{value}</dd>
          </div>
        ))}
        <dt>{t('verify.code')}</dt>
        <dd className={styles.code} data-testid="verify-code">{figures.code}</dd>
      </dl>
      <p className={styles.note}>{t('verify.now')}</p>
      <p>{t('verify.cause')}</p>
    </div>
  );
}
