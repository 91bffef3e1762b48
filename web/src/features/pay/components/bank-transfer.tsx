import { eurosToCents } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { LoadingPanel } from '../../../components/ui/spinner';
import { formatEuros } from '../../../lib/format-money';
import { CONTACT_EMAIL } from '../../../lib/organisation';
import { useFetched } from '../../../lib/use-fetched';
import { useLang } from '../../../lib/use-lang';
import { getBankTransfer } from '../api/get-bank-transfer';
import { LoadFailed } from './load-failed';
import styles from './pay.module.css';

/**
 * The manual bank transfer of spec §2 "Payment": the recipient, the IBAN and the
 * payment description to write, personalised with the payer's participant id so that the
 * administrator who marks the transfer paid finds them, and the payer's fee — all from the
 * server's configuration (GET /api/payment/banktransfer), in the page's language. While the
 * server has only the made-up development details (`example`), a warning says not to pay to them.
 * A failed load offers to try again and the contact address meanwhile.
 */
export function BankTransfer() {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const details = useFetched(getBankTransfer);
  return (
    <section aria-labelledby="bank-transfer-heading" data-testid="bank-transfer">
      <h2 id="bank-transfer-heading" className={styles.heading}>
        {t('transfer.heading')}
      </h2>
      <p>{t('transfer.intro')}</p>
      {details.status === 'loading' && <LoadingPanel label={t('transfer.loading')} testId="bank-transfer-loading" />}
      {details.status === 'error' && (
        <>
          <LoadFailed code={details.code} onRetry={details.reload} testId="bank-transfer-retry" />
          <p>
            {t('transfer.byMail')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
          </p>
        </>
      )}
      {details.status === 'ready' && (
        <>
          {details.data.example && (
            <p className={styles.note} role="note" data-testid="bank-example">
              <strong>{t('transfer.example')}</strong>
            </p>
          )}
          <dl className={styles.details}>
            <div>
              <dt>{t('transfer.recipient')}</dt>
              <dd data-testid="bank-recipient">{details.data.accountName}</dd>
            </div>
            <div>
              <dt>{t('transfer.account')}</dt>
              <dd className={styles.account} data-testid="bank-account">
                {details.data.iban}
              </dd>
            </div>
            <div>
              <dt>{t('transfer.description')}</dt>
              <dd className={styles.account} data-testid="bank-description">
                {details.data.description}
              </dd>
            </div>
            <div>
              <dt>{t('transfer.amount')}</dt>
              <dd data-testid="bank-amount">{formatEuros(eurosToCents(details.data.amount) ?? 0, lang)}</dd>
            </div>
          </dl>
          <p className={styles.note}>{t('transfer.descriptionNote')}</p>
        </>
      )}
    </section>
  );
}
