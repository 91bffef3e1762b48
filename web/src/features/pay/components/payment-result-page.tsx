import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel } from '../../../components/ui/panel';
import { formatEuros } from '../../../lib/format-money';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { amountCents } from '../utils/amount';
import styles from './pay.module.css';

export interface PaymentResultPageProps {
  status: 'success' | 'failed';
  /** The query's amount in euros, as the payment service sent it. */
  amount?: string;
  /** The query's code: the payment service's transaction or error code. */
  code?: string;
}

/**
 * /payment/{status} (spec §2 "Payment"): where the payment service sends the payer back. Login
 * required. Success: thanks, the amount and the code; failure: the code and a way back to /pay.
 * A link home either way.
 */
export function PaymentResultPage({ status, amount, code }: PaymentResultPageProps) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const success = status === 'success';
  const title = success ? t('result.successTitle') : t('result.failedTitle');
  useDocumentTitle(title);
  if (!isAuthenticated) return <LoginRequired />;

  const cents = amountCents(amount);
  return (
    <Panel heading={title} headingId="payment-result-heading" wide testId={`payment-${status}`}>
      <div className={styles.sections}>
        <p className={success ? styles.paid : styles.failed} role={success ? 'status' : 'alert'}>
          {success ? t('result.successText') : t('result.failedText')}
        </p>
        {(cents !== null || code) && (
          <dl className={styles.details}>
            {success && cents !== null && (
              <div>
                <dt>{t('result.amount')}</dt>
                <dd data-testid="payment-amount">{formatEuros(cents, lang)}</dd>
              </div>
            )}
            {code && (
              <div>
                <dt>{t('result.code')}</dt>
                <dd data-testid="payment-code">{code}</dd>
              </div>
            )}
          </dl>
        )}
        {success && <p className={styles.note}>{t('result.confirmNote')}</p>}
        <div className={styles.actions}>
          {!success && (
            <Link to="/pay" className={formStyles.button} data-testid="payment-retry">
              {t('result.tryAgain')}
            </Link>
          )}
          <Link to="/" className={success ? formStyles.button : formStyles.buttonSecondary} data-testid="payment-home">
            {t('result.home')}
          </Link>
        </div>
      </div>
    </Panel>
  );
}
