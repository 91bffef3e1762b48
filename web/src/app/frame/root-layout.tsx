import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import styles from './frame.module.css';

/**
 * Header, the page, footer. Scrolling to the top on navigation is the router's (router.tsx).
 * After the first render it loads and starts the offline app (pwa.ts: the service worker).
 */
export function RootLayout() {
  const { t } = useTranslation();
  useEffect(() => {
    void import('../pwa').then((pwa) => pwa.startPwa(), () => undefined);
  }, []);
  return (
    <div className={styles.page}>
      <a className={styles.skipLink} href="#main">
        {t('skipToContent')}
      </a>
      <SiteHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
