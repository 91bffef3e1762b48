import { useTranslation } from 'react-i18next';
import { LoadingPanel } from '../../components/ui/spinner';

/** Shown while a lazily loaded page's code arrives (the router waits a moment before showing it). */
export function RoutePending() {
  const { t } = useTranslation();
  return (
    <LoadingPanel label={t('loading')} />
  );
}
