import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isReachable, subscribeConnection } from '../../lib/connection';
import styles from './frame.module.css';

/**
 * The offline banner, under the top bar: while the server cannot be reached
 * (lib/connection.ts: the browser is offline, or a request got no answer) it says that the page
 * shows what was last loaded and that new entries are sent when the connection returns. The
 * status region is always on the page (empty while online), so that the change is announced.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(subscribeConnection, isReachable, () => true);
  return (
    <div role="status" className={online ? undefined : styles.offline} data-testid="offline-banner">
      {!online && <p>{t('offline.banner')}</p>}
    </div>
  );
}
