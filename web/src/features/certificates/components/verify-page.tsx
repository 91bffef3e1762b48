import type { CertificateAnswer } from '@sinilill/contracts';
import { Link } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetched } from '../../../lib/use-fetched';
import { useNumberFormat } from '../../../lib/use-number-format';
import { verifyCertificate } from '../api/verify-certificate';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './verify-page.module.css';

/**
 * /verify/{code} (issue 19 item 3), public: where a certificate's QR code leads. Says whether the
 * code is genuine and shows what it certifies, recomputed now (name, team, km, the team's blue
 * flowers and missions, the edition's dates); a forged, mistyped or erased person's code gets the
 * catalogue's CERTIFICATE_NOT_VALID and no name.
 */
export function VerifyPage({ code }: { code: string }) {
  const { t } = useTranslation('certificates');
  useDocumentTitle(t('verify.title'));
  const fetcher = useCallback((signal: AbortSignal) => verifyCertificate(code, signal), [code]);
  const state = useFetched(fetcher);
  return (
    <Panel heading={t('verify.title')} headingId="verify-heading" testId="verify-page" wide>
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
      <p>
        <Link to="/">{t('verify.home')}</Link>
      </p>
    </Panel>
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
