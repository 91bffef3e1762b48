import type { Edition } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import styles from './welcome.module.css';

/** Day of month of a YYYY-MM-DD date, without a leading zero. */
function dayOf(isoDay: string): number {
  return Number(isoDay.slice(8, 10));
}

/** Welcome text and the notice that this year's event is over (spec §2 "Home"). */
export function Welcome({ edition }: { edition: Edition }) {
  const { t } = useTranslation('home');
  return (
    <section className={styles.welcome} aria-labelledby="welcome-heading">
      <div className={styles.text}>
        <p className={styles.eyebrow}>
          {t('welcome.eyebrow', { start: dayOf(edition.startDate), end: dayOf(edition.endDate), year: edition.year })}
        </p>
        <h1 id="welcome-heading" className={styles.heading}>
          {t('welcome.heading')}
        </h1>
        <p className={styles.lead}>{t('welcome.lead')}</p>
        <p>{t('welcome.body', { count: edition.route.missions.length })}</p>
        <div className={styles.aftermath} role="note" aria-labelledby="aftermath-heading" data-testid="aftermath">
          <h2 id="aftermath-heading" className={styles.aftermathHeading}>
            {t('aftermath.heading', { year: edition.year })}
          </h2>
          <p>{t('aftermath.text')}</p>
          <p className={styles.seeYou}>{t('aftermath.seeYou')}</p>
        </div>
      </div>
      <div className={styles.art} aria-hidden="true">
        <FlowerIcon size={220} />
      </div>
    </section>
  );
}
