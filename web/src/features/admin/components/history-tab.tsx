import { useTranslation } from 'react-i18next';

/** PLACEHOLDER until the tab is built (issue 6). */
export function HistoryTab() {
  const { t } = useTranslation('adminAudit');
  return <p>{t('placeholder')}</p>;
}
