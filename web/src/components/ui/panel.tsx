import type { ReactNode } from 'react';
import styles from './panel.module.css';

export interface PanelProps {
  /** The page's h1. */
  heading: ReactNode;
  headingId: string;
  children: ReactNode;
  /** Wider panel for pages with more than a form. */
  wide?: boolean;
  testId?: string;
}

/** A centred card holding one page's heading and content (forms, messages). */
export function Panel({ heading, headingId, children, wide, testId }: PanelProps) {
  return (
    <section className={wide ? `${styles.panel} ${styles.wide}` : styles.panel} aria-labelledby={headingId} data-testid={testId}>
      <h1 id={headingId} className={styles.heading}>
        {heading}
      </h1>
      {children}
    </section>
  );
}

export { styles as panelStyles };
