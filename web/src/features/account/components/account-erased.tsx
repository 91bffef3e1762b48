import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel } from '../../../components/ui/panel';

/** Shown on the account page after the user erased their own account: logged out. */
export function AccountErased() {
  const { t } = useTranslation('account');
  return (
    <Panel heading={t('myData.erasedTitle')} headingId="account-erased-heading" testId="account-erased">
      <p role="status">{t('myData.erasedText')}</p>
      <Link to="/" className={formStyles.button}>
        {t('myData.home')}
      </Link>
    </Panel>
  );
}
