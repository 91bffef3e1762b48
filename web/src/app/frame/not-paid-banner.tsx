import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import styles from './frame.module.css';

/**
 * The sticky red banner of spec §2 ("shows when the user is logged in and payment info says not
 * paid"), linking to /pay. The header decides when (site-header.tsx: the payment info, or the
 * login token's isPaid claim until the info has loaded).
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
