import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import styles from './frame.module.css';

/** Shown while a lazily loaded page's code arrives (the router waits a moment before showing it). */
export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className={styles.pending}>
      <Spinner label={t('loading')} />
    </div>
  );
}
