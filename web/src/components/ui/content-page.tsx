import type { ReactNode } from 'react';
import styles from './content-page.module.css';

export interface ContentPageProps {
  /** The page's h1. */
  title: string;
  /** A lead paragraph under the title. */
  intro?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/**
 * A reading page (history, guide, supporters, news, privacy): the h1 and its lead in a banner,
 * then the page's sections. An article labelled by its title, inside the frame's main landmark.
 */
export function ContentPage({ title, intro, children, testId }: ContentPageProps) {
  return (
    <article className={styles.page} aria-labelledby="page-title" data-testid={testId}>
      <header className={styles.header}>
        <h1 id="page-title" className={styles.title}>
          {title}
        </h1>
        {intro && <p className={styles.intro}>{intro}</p>}
      </header>
      {children}
    </article>
  );
}

export interface ContentSectionProps {
  /** The section's id (a fragment target) and the base of its heading's id. */
  id: string;
  heading: ReactNode;
  children: ReactNode;
  testId?: string;
  className?: string;
}

/** One h2 section of a reading page, on a card. */
export function ContentSection({ id, heading, children, testId, className }: ContentSectionProps) {
  return (
    <section id={id} className={className ? `${styles.section} ${className}` : styles.section} aria-labelledby={`${id}-heading`} data-testid={testId}>
      <h2 id={`${id}-heading`} className={styles.sectionHeading}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

export { styles as contentStyles };
