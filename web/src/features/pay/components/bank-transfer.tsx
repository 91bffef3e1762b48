import { currentEdition } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { formatEuros } from '../../../lib/format-money';
import { BANK_ACCOUNT, CONTACT_EMAIL, ORGANISATION_NAME } from '../../../lib/organisation';
import { useSessionStore } from '../../../lib/session-store';
import { useLang } from '../../../lib/use-lang';
import styles from './pay.module.css';

/**
 * The manual bank transfer fallback of spec §2 "Payment": recipient, account number (or where
 * to ask for it while it is not configured, lib/organisation.ts), the description in the page's
 * language ("Sinilill <year> osalustasu <full name>", "Sinilill <year> participation fee <full
 * name>") and the amount: the payer's fee (`feeCents`, EUR cents)
 * when known, else "by year of birth".
 */
export function BankTransfer({ feeCents }: { feeCents: number | null }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const fullName = useSessionStore((s) => s.identity.fullName);
  return (
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
          <dd data-testid="bank-description">{t('transfer.descriptionText', { year: currentEdition.year, name: fullName }).trim()}</dd>
        </div>
        <div>
          <dt>{t('transfer.amount')}</dt>
          <dd data-testid="bank-amount">{feeCents === null ? t('transfer.amountText') : formatEuros(feeCents, lang)}</dd>
        </div>
      </dl>
    </section>
  );
}
