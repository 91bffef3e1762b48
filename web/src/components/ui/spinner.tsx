import type { CSSProperties } from 'react';
import styles from './spinner.module.css';

export interface SpinnerProps {
  /** One animation cycle, ms (spec §9: 1200). */
  durationMs?: number;
  /** Circle size, px (spec §9: 15). */
  size?: number;
  /** Circle colour (spec §2: white; place it on a coloured background). */
  color?: string;
  /** Number of circles (spec §9: 3). */
  count?: number;
  /** Text for screen readers, e.g. "Loading…". */
  label: string;
}

/**
 * The loading spinner of spec §2/§9: `count` circles that turn into rhombuses and back, each
 * `1.125 × size` from the previous one and `150 ms × position` behind it.
 */
export function Spinner({ durationMs = 1200, size = 15, color = '#fff', count = 3, label }: SpinnerProps) {
  const circles = Array.from({ length: count }, (_, index) => index + 1);
  return (
    <span
      className={styles.spinner}
      role="status"
      style={{ '--spinner-size': `${size}px`, '--spinner-color': color, '--spinner-duration': `${durationMs}ms` } as CSSProperties}
    >
      {circles.map((position) => (
        <span
          key={position}
          className={styles.circle}
          aria-hidden="true"
          style={{ animationDelay: `${150 * position}ms`, marginLeft: position === 1 ? 0 : size * 1.125 }}
        />
      ))}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The spinner in a brand-coloured block where a page's content is loading. */
export function LoadingPanel({ label, testId }: { label: string; testId?: string }) {
  return (
    <div className={styles.panel} data-testid={testId}>
      <Spinner label={label} />
    </div>
  );
}
