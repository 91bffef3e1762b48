import type { Edition } from '@sinilill/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { errorCodeOf } from '../../../lib/api-client';
import { editionDayTexts } from '../../../lib/edition-dates';
import { editionPhase } from '../../../lib/edition-phase';
import { useLang } from '../../../lib/use-lang';
import { useStats } from '../../../lib/use-stats';
import { useTimedValue } from '../../../lib/use-timed-value';
import { downloadCertificate, saveFile, type CertificateOf } from '../api/certificate-file';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './certificate-box.module.css';

/**
 * The team page's certificates and sharing: download buttons for the
 * member's own certificate and the team's (PDF), enabled once the results are final — after the
 * late-entry day on the app's clock (GET /api/stats `today`, Europe/Tallinn); before that they are
 * disabled with the reason (CERTIFICATE_NOT_AVAILABLE_YET is the server's word on it) — and the team's public progress link (its preview is the share
 * image) to copy or open. Texts in the `certificates` namespace (loaded by the /team route).
 */
export function CertificateBox({ teamId, participantId, edition }: { teamId: number; participantId: number | null; edition: Edition }) {
  const { t } = useTranslation('certificates');
  const lang = useLang();
  const stats = useStats();
  const phase = editionPhase(edition, stats.stats.today);
  // Without the clock's day (the stats failed) the server decides: a refusal shows as an error.
  const available = stats.status === 'error' || phase === 'counting' || phase === 'afterDraw';
  const [pending, setPending] = useState<CertificateOf['kind'] | null>(null);
  const [error, showError] = useTimedValue<string>();
  const [copied, showCopied] = useTimedValue<true>();
  const shareUrl = `${window.location.origin}/api/share/team/${teamId}${lang === 'en' ? '?lang=en' : ''}`;

  async function download(of: CertificateOf) {
    setPending(of.kind);
    try {
      const { blob, fileName } = await downloadCertificate(of);
      saveFile(blob, fileName);
    } catch (failure) {
      showError(errorCodeOf(failure));
    } finally {
      setPending(null);
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(shareUrl);
      showCopied(true);
    } catch {
      // No clipboard (an insecure context): the link stays in the field, selected, for copying by hand.
      (document.getElementById('team-share-link') as HTMLInputElement | null)?.select();
    }
  }

  const button = (of: CertificateOf, label: string, testId: string) => (
    <button
      type="button"
      className={formStyles.buttonSecondary}
      disabled={!available || pending !== null}
      aria-describedby={available ? undefined : 'certificates-not-yet'}
      onClick={() => void download(of)}
      data-testid={testId}
    >
      {pending === of.kind ? t('team.downloading') : label}
    </button>
  );

  return (
    <section className={styles.box} aria-labelledby="certificates-heading" data-testid="certificate-box">
      <h2 id="certificates-heading" className={styles.heading}>
        {t('team.heading')}
      </h2>
      <p className={styles.intro}>{t('team.intro')}</p>
      <div className={styles.buttons}>
        {participantId !== null && button({ kind: 'participant', participantId }, t('team.own'), 'certificate-own')}
        {button({ kind: 'team', teamId }, t('team.team'), 'certificate-team')}
      </div>
      {!available && stats.status === 'success' && (
        <p id="certificates-not-yet" className={styles.intro} data-testid="certificates-not-yet">
          {t('team.notYet', { lateDay: editionDayTexts(edition, lang).lateDay })}
        </p>
      )}
      {error && <ErrorAlert code={error} />}
      <h3 className={styles.subheading}>{t('team.shareHeading')}</h3>
      <p className={styles.intro}>{t('team.shareIntro')}</p>
      <div className={styles.linkRow}>
        <label className="sr-only" htmlFor="team-share-link">
          {t('team.shareLink')}
        </label>
        <input id="team-share-link" className={styles.link} type="url" readOnly value={shareUrl} data-testid="team-share-link" />
        <button type="button" className={formStyles.buttonSecondary} onClick={() => void copy()} data-testid="team-share-copy">
          {t('team.copy')}
        </button>
        <a href={shareUrl} target="_blank" rel="noopener" data-testid="team-share-open">
          {t('team.open')}
        </a>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('team.copied') : ''}
      </p>
    </section>
  );
}
