import type { Edition } from '@sinilill/domain';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { editionDayTexts } from '../../../lib/edition-dates';
import { editionPhase, type EditionPhase } from '../../../lib/edition-phase';
import { useLang } from '../../../lib/use-lang';
import styles from './welcome.module.css';

export interface WelcomeProps {
  /** The edition the site runs; null between editions (then `notice` says what comes next). */
  edition: Edition | null;
  /**
   * The app clock's local day (GET /api/stats `today`, YYYY-MM-DD in Europe/Tallinn); '' while
   * unknown (loading, or the stats failed), and then no phase notice is shown rather than a guess.
   */
  today: string;
  /** The server's verdict on entries (settings.entriesOpen); null while unknown. */
  entriesOpen: boolean | null;
  /** Registration is switched on (settings.registrationEnabled); null while unknown. */
  registrationEnabled: boolean | null;
  /** Shown instead of the edition's phase (between editions: when the next one opens). */
  notice?: ReactNode;
}

/**
 * Welcome text and where this year's event stands (spec §2 "Home": the aftermath notice; §4, §9:
 * before, during, late entries until 3 May, counting until the draw on 5 May, after the draw; the
 * days are the edition's, named in the page's language by lib/edition-dates.ts), and a
 * link to the archive of earlier years (/history).
 */
export function Welcome({ edition, today, entriesOpen, registrationEnabled, notice }: WelcomeProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const days = edition ? editionDayTexts(edition, lang) : null;
  const phase = edition ? editionPhase(edition, today) : null;
  return (
    <section className={styles.welcome} aria-labelledby="welcome-heading">
      <div className={styles.text}>
        {edition && days && (
          <p className={styles.eyebrow} data-testid="welcome-dates">
            {t('welcome.eyebrow', { range: days.range, year: edition.year })}
          </p>
        )}
        <h1 id="welcome-heading" className={styles.heading}>
          {t('welcome.heading')}
        </h1>
        <p className={styles.lead}>{t('welcome.lead')}</p>
        {edition && <p>{t('welcome.body', { count: edition.route.missions.length })}</p>}
        {notice ?? (edition && phase && <PhaseNotice phase={phase} edition={edition} entriesOpen={entriesOpen} registrationEnabled={registrationEnabled} />)}
        <p>
          <Link to="/history" className={styles.phaseLink} data-testid="home-archive-link">
            {t('welcome.archiveLink')}
          </Link>
        </p>
      </div>
      <div className={styles.art} aria-hidden="true">
        <FlowerIcon size={220} />
      </div>
    </section>
  );
}

interface PhaseNoticeProps {
  phase: EditionPhase;
  edition: Edition;
  entriesOpen: boolean | null;
  registrationEnabled: boolean | null;
  /** Shown instead of the edition's phase (between editions: when the next one opens). */
  notice?: ReactNode;
}

/**
 * What the phase means for a participant. It invites adding entries only while the server says
 * entries are open (the switch may be off during the event), and says they are closed only when
 * the server says so: while the switches are unknown it says neither.
 */
function PhaseNotice({ phase, edition, entriesOpen, registrationEnabled }: PhaseNoticeProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const days = editionDayTexts(edition, lang);
  const year = edition.year;
  const name = edition.name[lang];
  const draw = <p>{t('phase.draw', { drawOn: days.drawOn, time: days.drawTime })}</p>;
  const teamLink = (
    <p>
      <Link to="/team" className={styles.phaseLink} data-testid="phase-team-link">
        {t('phase.teamLink')}
      </Link>
    </p>
  );

  let heading: string;
  let body: ReactNode;
  switch (phase) {
    case 'before':
      heading = t('phase.before.heading', { name, startOn: days.startOn });
      body = (
        <>
          <p>{t('phase.before.text', { span: days.span })}</p>
          {registrationEnabled === true && (
            <p>
              {t('phase.before.registrationOpen')}{' '}
              <Link to="/register" className={styles.phaseLink} data-testid="phase-register-link">
                {t('phase.before.register')}
              </Link>
            </p>
          )}
        </>
      );
      break;
    case 'during':
      heading = t('phase.during.heading', { name });
      body = (
        <>
          <p>{t('phase.during.text', { until: days.until })}</p>
          {entriesOpen === true && (
            <>
              <p data-testid="phase-entries-open">{t('phase.during.entriesOpen')}</p>
              {teamLink}
            </>
          )}
          {entriesOpen === false && <p data-testid="phase-entries-closed">{t('phase.during.entriesClosed')}</p>}
        </>
      );
      break;
    case 'lateEntries':
      heading = t('phase.lateEntries.heading', { year });
      body = (
        <>
          {entriesOpen === true && (
            <>
              <p data-testid="phase-entries-open">{t('phase.lateEntries.entriesOpen', { lateDay: days.lateDay })}</p>
              {teamLink}
            </>
          )}
          {entriesOpen === false && <p data-testid="phase-entries-closed">{t('phase.lateEntries.entriesClosed')}</p>}
          {draw}
          <p>{t('phase.thanks')}</p>
        </>
      );
      break;
    case 'counting':
      heading = t('phase.counting.heading', { year });
      body = (
        <>
          <p>{t('phase.counting.text')}</p>
          {draw}
          <p>{t('phase.thanks')}</p>
        </>
      );
      break;
    case 'afterDraw':
      heading = t('phase.afterDraw.heading', { year });
      body = (
        <>
          <p>{t('phase.thanks')}</p>
          <p>{t('phase.afterDraw.text')}</p>
          <p className={styles.seeYou}>{t('phase.seeYou')}</p>
        </>
      );
      break;
  }

  return (
    <div className={styles.aftermath} role="note" aria-labelledby="phase-heading" data-testid="edition-phase" data-phase={phase}>
      <h2 id="phase-heading" className={styles.aftermathHeading}>
        {heading}
      </h2>
      {body}
    </div>
  );
}
