import { type KeyboardEvent, type ReactElement, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useHomeStore } from '../stores/home-store';
import styles from './top-teams.module.css';

/** Smallest horizontal swipe, px, that turns the carousel. */
const SWIPE_MIN = 40;

/**
 * The small-screen top teams (spec §2, §9: up to 8 cards, width ≤ 600 px): one card at a time,
 * looping in both directions, with buttons, arrow keys and swipes. Hidden cards stay in the
 * DOM (for tests and layout) but are inert, so neither focus nor screen readers reach them.
 */
export function TeamCarousel({ children }: { children: ReactElement[] }) {
  const { t } = useTranslation('home');
  const total = children.length;
  const stored = useHomeStore((s) => s.carouselIndex);
  const setIndex = useHomeStore((s) => s.setCarouselIndex);
  const index = total > 0 ? ((stored % total) + total) % total : 0;
  const touchStart = useRef<number | null>(null);

  const go = (step: number) => setIndex((((index + step) % total) + total) % total);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
    else return;
    event.preventDefault();
  };

  return (
    <div
      className={styles.carousel}
      role="region"
      aria-roledescription={t('topTeams.carouselRole')}
      aria-label={t('topTeams.carousel')}
      onKeyDown={onKeyDown}
      data-testid="top-teams-carousel"
    >
      <div
        className={styles.viewport}
        onTouchStart={(event) => {
          touchStart.current = event.touches[0]?.clientX ?? null;
        }}
        onTouchEnd={(event) => {
          const start = touchStart.current;
          const end = event.changedTouches[0]?.clientX;
          touchStart.current = null;
          if (start === null || end === undefined || Math.abs(end - start) < SWIPE_MIN) return;
          go(end < start ? 1 : -1);
        }}
      >
        {/* Slides are groups (the WAI-ARIA carousel pattern), so the track is not a list. */}
        <div className={styles.track} style={{ transform: `translateX(-${index * 100}%)` }} aria-live="polite">
          {children.map((child, position) => (
            <div
              key={child.key ?? position}
              className={styles.slide}
              role="group"
              aria-roledescription={t('topTeams.slideRole')}
              aria-label={t('topTeams.slide', { current: position + 1, total })}
              aria-hidden={position !== index}
              inert={position !== index}
            >
              {child}
            </div>
          ))}
        </div>
      </div>
      <div className={styles.carouselControls}>
        <button type="button" className={styles.carouselButton} onClick={() => go(-1)} aria-label={t('topTeams.previous')} data-testid="carousel-prev">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <p className={styles.carouselPosition} aria-hidden="true">
          {t('topTeams.slide', { current: index + 1, total })}
        </p>
        <button type="button" className={styles.carouselButton} onClick={() => go(1)} aria-label={t('topTeams.next')} data-testid="carousel-next">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
    </div>
  );
}
