import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import formStyles from './form/form.module.css';
import { Panel } from './panel';

/**
 * Shown instead of a page that needs a session (spec §8: 'Please log in to see this page.').
 * The page keeps its own tab title.
 */
export function LoginRequired() {
  const { t } = useTranslation();
  return (
    <Panel heading={t('loginRequired.title')} headingId="login-required-heading" testId="login-required">
      <p>{t('loginRequired.text')}</p>
      <Link to="/login" className={formStyles.button}>
        {t('loginRequired.link')}
      </Link>
    </Panel>
  );
}
