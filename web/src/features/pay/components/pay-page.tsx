import { currentEdition } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { FeeRules } from '../../../components/fee-rules';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel, panelStyles } from '../../../components/ui/panel';
import { formatEuros } from '../../../lib/format-money';
import { BANK_ACCOUNT, CONTACT_EMAIL, EVENT_REGISTRATION_URL, ORGANISATION_NAME, paymentDescription } from '../../../lib/organisation';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import styles from './pay.module.css';

/**
 * /pay (spec §2 "Payment"), as far as it goes without the payment provider (a later issue): login
 * needed; the participation fee by birth year; the manual bank transfer fallback (recipient,
 * account number, description "Sinilill <year> osalustasu <full name>"); the event registration
 * site when configured (lib/organisation.ts). Paid or not comes from the login token for now.
 */
export function PayPage() {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const identity = useSessionStore((s) => s.identity);
  useDocumentTitle(t('title'));
  if (!isAuthenticated) return <LoginRequired />;

  const { fees, year } = currentEdition;
  return (
    <Panel heading={t('title')} headingId="pay-heading" wide testId="pay-page">
      <div className={styles.sections}>
        {identity.isPaid && (
          <p className={styles.paid} data-testid="pay-paid">
            {t('paid')}
          </p>
        )}
        <div>
          <FeeRules />
          <p className={styles.note}>{t('company', { amount: formatEuros(fees.companyPerPersonCents, lang) })}</p>
        </div>

        <section aria-labelledby="bank-transfer-heading" data-testid="bank-transfer">
          <h2 id="bank-transfer-heading" className={styles.heading}>
            {t('transfer.heading')}
          </h2>
          <p>{t('transfer.intro')}</p>
          <dl className={styles.details}>
            <div>
              <dt>{t('transfer.recipient')}</dt>
              <dd data-testid="bank-recipient">{ORGANISATION_NAME}</dd>
            </div>
            <div>
              <dt>{t('transfer.account')}</dt>
              {BANK_ACCOUNT ? (
                <dd className={styles.account} data-testid="bank-account">
                  {BANK_ACCOUNT}
                </dd>
              ) : (
                <dd data-testid="bank-account">
                  {t('transfer.accountByMail')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
                </dd>
              )}
            </div>
            <div>
              <dt>{t('transfer.description')}</dt>
              <dd data-testid="bank-description">{paymentDescription(year, identity.fullName)}</dd>
            </div>
            <div>
              <dt>{t('transfer.amount')}</dt>
              <dd>{t('transfer.amountText')}</dd>
            </div>
          </dl>
        </section>

        {EVENT_REGISTRATION_URL && (
          <p className={panelStyles.footer}>
            {t('registrationSite.text')}{' '}
            <a href={EVENT_REGISTRATION_URL} target="_blank" rel="noopener noreferrer" data-testid="event-registration-link">
              {t('registrationSite.link')}
            </a>
          </p>
        )}
      </div>
    </Panel>
  );
}
