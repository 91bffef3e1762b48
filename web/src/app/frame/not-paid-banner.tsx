import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import styles from './frame.module.css';

/**
 * The sticky red banner of spec §2, shown while the logged-in user's fee is unpaid. Until the
 * payment info call exists (a later issue), "unpaid" is the login token's isPaid claim.
 */
export function NotPaidBanner() {
  const { t } = useTranslation();
  return (
    <div className={styles.notPaid} data-testid="not-paid-banner">
      <p>
        {t('notPaid.text')}{' '}
        <Link to="/pay" className={styles.notPaidLink}>
          {t('notPaid.link')}
        </Link>
      </p>
    </div>
  );
}
