import { useTranslation } from 'react-i18next';

/** PLACEHOLDER until the tab is built (issue 6). */
export function UsersTab() {
  const { t } = useTranslation('admin');
  return <p>{t('title')}</p>;
}
