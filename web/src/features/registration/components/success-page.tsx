import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FeeRules } from '../../../components/fee-rules';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel } from '../../../components/ui/panel';
import { CONTACT_EMAIL } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';
import styles from './registration.module.css';

/**
 * /success (spec §2 "Registration success"): confirm the account from the mail, the contact
 * address, and the participation fee.
 */
export function SuccessPage() {
  const { t } = useTranslation('registration');
  useDocumentTitle(t('success.title'));
  return (
    <Panel heading={t('success.title')} headingId="success-heading" wide testId="registration-success">
      <div className={styles.success}>
        <p>{t('success.confirm')}</p>
        <p>
          {t('success.noMail')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
        </p>
        <p>{t('success.feeIntro')}</p>
        <FeeRules />
        <div className={styles.successActions}>
          <Link to="/login" className={formStyles.button}>
            {t('success.logIn')}
          </Link>
        </div>
      </div>
    </Panel>
  );
}
