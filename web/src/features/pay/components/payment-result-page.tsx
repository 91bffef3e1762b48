import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel } from '../../../components/ui/panel';
import { isCatalogueCode } from '../../../lib/errors/catalogue';
import { formatEuros } from '../../../lib/format-money';
import { useIsPaid } from '../../../lib/payment-info-store';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { refreshAfterPayment } from '../api/refresh-session';
import { amountCents } from '../utils/amount';
import styles from './pay.module.css';

export interface PaymentResultPageProps {
  status: 'success' | 'failed';
  /** The query's amount in euros, as the payment service sent it. */
  amount?: string;
  /** The query's code: the payment's reference, or why it was refused (a catalogue code, spec §8). */
  code?: string;
}

/**
 * /payment/{status} (spec §2 "Payment"): where the payment service sends the payer back. Login
 * required. Success: thanks, the amount (two decimals, euro sign) and the code; the session is
 * refreshed and the payment info reloaded, so the not-paid banner goes and the donate link comes
 * without a new login. Failure: the code (a refusal's catalogue code as its text, spec §8) and a
 * way back to /pay. A link home either way.
 */
export function PaymentResultPage({ status, amount, code }: PaymentResultPageProps) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isPaid = useIsPaid();
  const success = status === 'success';
  const title = success ? t('result.successTitle') : t('result.failedTitle');
  useDocumentTitle(title);
  // Once per visit (StrictMode runs effects twice in development: the ref remembers).
  const refreshed = useRef(false);
  useEffect(() => {
    if (!success || !isAuthenticated || refreshed.current) return;
    refreshed.current = true;
    void refreshAfterPayment();
  }, [success, isAuthenticated]);
  if (!isAuthenticated) return <LoginRequired />;

  const cents = amountCents(amount);
  // The server names a refusal (INVALID_NOTIFICATION, PAYMENT_PROVIDER_UNAVAILABLE) by its code.
  const refusal = !success && isCatalogueCode(code) ? code : null;
  const reference = refusal ? undefined : code;
  return (
    <Panel heading={title} headingId="payment-result-heading" wide testId={`payment-${status}`}>
      <div className={styles.sections}>
        <p className={success ? styles.paid : styles.failed} role={success ? 'status' : 'alert'}>
          {success ? t('result.successText') : t('result.failedText')}
        </p>
        {refusal && <ErrorAlert code={refusal} />}
        {((success && cents !== null) || reference) && (
          <dl className={styles.details}>
            {success && cents !== null && (
              <div>
                <dt>{t('result.amount')}</dt>
                <dd data-testid="payment-amount">{formatEuros(cents, lang)}</dd>
              </div>
            )}
            {reference && (
              <div>
                <dt>{t('result.code')}</dt>
                <dd data-testid="payment-code">{reference}</dd>
              </div>
            )}
          </dl>
        )}
        {/* Until the provider's confirmation has marked the fee paid. */}
        {success && !isPaid && <p className={styles.note}>{t('result.confirmNote')}</p>}
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
