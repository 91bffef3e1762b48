import { useId, type ReactNode, type Ref } from 'react';
import styles from './audit.module.css';

export interface AuditSectionProps {
  heading: ReactNode;
  /** 2 for a tab's parts (under the console's h1), 3 for the parts of the history. */
  level: 2 | 3;
  /** A line under the heading saying what the part does. */
  intro?: ReactNode;
  /** Beside the heading (a close button). */
  aside?: ReactNode;
  /** The heading's ref, for a part that takes the focus when it opens. */
  headingRef?: Ref<HTMLHeadingElement>;
  testId?: string;
  /** Extra attributes for the tests (`data-stream`). */
  data?: Record<`data-${string}`, string>;
  children: ReactNode;
}

/**
 * One part of the audit tabs: a section named by its heading, an optional intro line,
 * then its content. Sections in a row are divided by a rule.
 */
export function AuditSection({ heading, level, intro, aside, headingRef, testId, data, children }: AuditSectionProps) {
  const headingId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const title = (
    <Heading id={headingId} ref={headingRef} tabIndex={headingRef ? -1 : undefined} className={level === 2 ? styles.heading : styles.subheading}>
      {heading}
    </Heading>
  );
  return (
    <section className={styles.section} aria-labelledby={headingId} data-testid={testId} {...data}>
      {aside ? (
        <div className={styles.sectionHeader}>
          {title}
          {aside}
        </div>
      ) : (
        title
      )}
      {intro && <p className={styles.intro}>{intro}</p>}
      {children}
    </section>
  );
}
