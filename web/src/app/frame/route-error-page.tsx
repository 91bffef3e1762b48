import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title';
import styles from './frame.module.css';

/**
 * Shown inside the frame when a page fails as a whole: its code did not download (a new release
 * replaced the old chunks, the network dropped) or it threw while rendering. "Try again" loads the
 * route afresh; the link goes home. Parts of pages that may fail on their own have their own
 * boundaries (components/ui/error-boundary, the admin console's tabs).
 */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  useDocumentTitle(t('routeError.title'));
  useEffect(() => {
    console.error('The page failed:', error);
  }, [error]);
  return (
    <section className={styles.notFound} role="alert" aria-labelledby="route-error-title" data-testid="route-error">
      <h1 id="route-error-title">{t('routeError.title')}</h1>
      <p>{t('routeError.text')}</p>
      <div className={styles.errorActions}>
        <button
          type="button"
          className={styles.buttonLink}
          onClick={() => {
            reset();
            void router.invalidate();
          }}
          data-testid="route-error-retry"
        >
          {t('errorBoundary.retry')}
        </button>
        <Link to="/" className={styles.buttonLinkSecondary}>
          {t('notFound.backHome')}
        </Link>
      </div>
    </section>
  );
}
