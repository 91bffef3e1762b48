import type { StatsAnswer } from '@sinilill/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useNumberFormat } from '../../../lib/use-number-format';
import homeStyles from './home.module.css';
import styles from './stat-boxes.module.css';

function PeopleIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="9" cy="8" r="3.5" fill="currentColor" />
      <path d="M2 20c0-3.9 3.1-7 7-7s7 3.1 7 7z" fill="currentColor" />
      <circle cx="17" cy="9" r="2.6" fill="currentColor" opacity=".6" />
      <path d="M14.5 13.3A5.6 5.6 0 0 1 22.5 18.5V20h-5a8.4 8.4 0 0 0-3-6.7z" fill="currentColor" opacity=".6" />
    </svg>
  );
}

function TeamsIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path d="M5 3v18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path d="M6 4h12l-3 4 3 4H6z" fill="currentColor" />
    </svg>
  );
}

function RouteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="5" cy="18" r="2.5" fill="currentColor" />
      <circle cx="19" cy="6" r="2.5" fill="currentColor" />
      <path d="M7 17c6 0 2-8 8-9" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 2.5" />
    </svg>
  );
}

/** The four totals of spec §2 "Home", each number with a space between thousands. */
export function StatBoxes({ stats }: { stats: StatsAnswer }) {
  const { t } = useTranslation('home');
  const format = useNumberFormat();
  const boxes: { id: string; label: string; value: number; icon: ReactNode }[] = [
    { id: 'participants', label: t('stats.participants'), value: stats.totalParticipants, icon: <PeopleIcon /> },
    { id: 'teams', label: t('stats.teams'), value: stats.teams.length, icon: <TeamsIcon /> },
    { id: 'distance', label: t('stats.distance'), value: stats.totalDistance, icon: <RouteIcon /> },
    { id: 'flowers', label: t('stats.flowers'), value: stats.totalBlueFlowers, icon: <FlowerIcon size={28} /> },
  ];
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className={`${homeStyles.sectionHeading} sr-only`}>
        {t('stats.heading')}
      </h2>
      <dl className={styles.boxes}>
        {boxes.map((box) => (
          <div key={box.id} className={`${styles.box} ${box.id === 'flowers' ? styles.flowerBox : ''}`}>
            <dt className={styles.label}>
              <span className={styles.icon}>{box.icon}</span>
              <span>{box.label}</span>
            </dt>
            <dd className={styles.value} data-testid={`stat-${box.id}`}>
              {format(box.value)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
