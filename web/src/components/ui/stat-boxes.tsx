import type { CSSProperties, ReactNode } from 'react';
import { useNumberFormat } from '../../lib/use-number-format';
import { FlowerIcon } from './flower-icon';
import styles from './stat-boxes.module.css';

/** One figure: `value` is shown with a space between thousands (spec §2). */
export interface StatBox {
  id: string;
  label: string;
  value: number;
  icon: ReactNode;
}

/**
 * A row of figure boxes (the home page's four totals, the team page's three figures), as a
 * description list under a visually hidden heading. Each value carries `${testIdPrefix}${id}`.
 * The box with id `flowers` gets the blue-flower style.
 */
export function StatBoxes({ boxes, heading, headingId, testIdPrefix }: { boxes: StatBox[]; heading: string; headingId: string; testIdPrefix: string }) {
  const format = useNumberFormat();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="sr-only">
        {heading}
      </h2>
      <dl className={`${styles.boxes} ${boxes.length === 3 ? styles.three : ''}`} style={{ '--boxes': boxes.length } as CSSProperties}>
        {boxes.map((box) => (
          <div key={box.id} className={`${styles.box} ${box.id === 'flowers' ? styles.flowerBox : ''}`}>
            <dt className={styles.label}>
              <span className={styles.icon}>{box.icon}</span>
              <span>{box.label}</span>
            </dt>
            <dd className={styles.value} data-testid={`${testIdPrefix}${box.id}`}>
              {format(box.value)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** People (participants, members). */
export function PeopleIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="9" cy="8" r="3.5" fill="currentColor" />
      <path d="M2 20c0-3.9 3.1-7 7-7s7 3.1 7 7z" fill="currentColor" />
      <circle cx="17" cy="9" r="2.6" fill="currentColor" opacity=".6" />
      <path d="M14.5 13.3A5.6 5.6 0 0 1 22.5 18.5V20h-5a8.4 8.4 0 0 0-3-6.7z" fill="currentColor" opacity=".6" />
    </svg>
  );
}

/** A pennant (teams). */
export function TeamsIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path d="M5 3v18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path d="M6 4h12l-3 4 3 4H6z" fill="currentColor" />
    </svg>
  );
}

/** A dashed path between two points (distance). */
export function RouteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="5" cy="18" r="2.5" fill="currentColor" />
      <circle cx="19" cy="6" r="2.5" fill="currentColor" />
      <path d="M7 17c6 0 2-8 8-9" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 2.5" />
    </svg>
  );
}

/** The blue flower at the boxes' icon size. */
export function FlowerStatIcon() {
  return <FlowerIcon size={28} />;
}
