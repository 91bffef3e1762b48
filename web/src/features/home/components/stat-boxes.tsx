import type { StatsAnswer } from '@sinilill/contracts';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerStatIcon, PeopleIcon, RouteIcon, TeamsIcon } from '../../../components/ui/stat-boxes';
import boxStyles from '../../../components/ui/stat-boxes.module.css';
import { useMoneyRaised } from '../../../lib/use-money-raised';
import { useNumberFormat } from '../../../lib/use-number-format';
import styles from './home.module.css';

/** A coin with the euro sign (money raised). */
function EuroIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M15.5 8.2a4.5 4.5 0 1 0 0 7.6M7 10.8h6M7 13.2h6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The totals of spec §2 "Home", each number with a space between thousands, and the money raised
 * (fees and donations) beside the distance, in euros ("1 234,50 €", "€1 234.50"),
 * "at least" while some paid fees' amounts are unknown (useMoneyRaised).
 * The markup and look of the shared figure boxes (components/ui/stat-boxes), with one text figure.
 */
export function StatBoxes({ stats }: { stats: StatsAnswer }) {
  const { t } = useTranslation('home');
  const format = useNumberFormat();
  const moneyRaised = useMoneyRaised();
  const raised = moneyRaised(stats.raised_cents, stats.raised_unknown_count);
  const raisedValue = raised.atLeast ? (
    <>
      <span className={styles.atLeast}>{raised.atLeast}</span>
      {raised.amount}
    </>
  ) : raised.amount;
  const boxes: { id: string; label: string; value: ReactNode; icon: ReactNode; className?: string; note?: string }[] = [
    { id: 'participants', label: t('stats.participants'), value: format(stats.totalParticipants), icon: <PeopleIcon /> },
    { id: 'teams', label: t('stats.teams'), value: format(stats.teams.length), icon: <TeamsIcon /> },
    { id: 'distance', label: t('stats.distance'), value: format(stats.totalDistance), icon: <RouteIcon /> },
    { id: 'raised', label: t('stats.raised'), value: raisedValue, note: raised.note, icon: <EuroIcon />, className: styles.moneyValue },
    { id: 'flowers', label: t('stats.flowers'), value: format(stats.totalBlueFlowers), icon: <FlowerStatIcon /> },
  ];
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className="sr-only">
        {t('stats.heading')}
      </h2>
      <dl className={boxStyles.boxes} style={{ '--boxes': boxes.length } as CSSProperties}>
        {boxes.map((box) => (
          <div key={box.id} className={`${boxStyles.box} ${box.id === 'flowers' ? `${boxStyles.flowerBox} ${styles.lastBox}` : ''}`}>
            <dt className={boxStyles.label}>
              <span className={boxStyles.icon}>{box.icon}</span>
              <span>{box.label}</span>
            </dt>
            <dd className={`${boxStyles.value} ${box.className ?? ''}`} data-testid={`stat-${box.id}`} title={box.note}>
              {box.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
