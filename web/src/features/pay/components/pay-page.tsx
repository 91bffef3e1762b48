import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EditionGate } from '../../../components/edition-gate';
import { FeeRules } from '../../../components/fee-rules';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel, panelStyles } from '../../../components/ui/panel';
import { LoadingPanel } from '../../../components/ui/spinner';
import { formatEuros } from '../../../lib/format-money';
import { EVENT_REGISTRATION_URL } from '../../../lib/organisation';
import { loadPaymentInfo, usePaymentInfo } from '../../../lib/payment-info';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { BankTransfer } from './bank-transfer';
import { DonationForm } from './donation-form';
import { FeeForm, TeamFeeForm } from './fee-form';
import { FundraisingTotals } from './fundraising-totals';
import { LoadFailed } from './load-failed';
import { teamFeeOffer } from '../utils/team-fee';
import styles from './pay.module.css';

/**
 * /pay (spec §2 "Payment"; login needed). The payment info is read again on every visit
 * (GET /api/payment/info). Not paid: the fee form (fee-form.tsx), the fees by birth year, the
 * manual bank transfer's details from the server (bank-transfer.tsx) and the event registration
 * site when configured (lib/organisation.ts). Paid: a thank-you and the donation form. The captain
 * of a company team whose members have not all paid is offered their fees (spec §9 company fee): in
 * the one fee form while their own is unpaid, else in the team fee form above the donation. Either way the money raised so far. While the info cannot be loaded the page
 * says so and offers to try again, keeping the bank transfer details in view.
 */
export function PayPage() {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const hasParticipant = useSessionStore((s) => s.identity.participantId !== null);
  const { info, status } = usePaymentInfo();
  useDocumentTitle(t('title'));
  useEffect(() => {
    if (isAuthenticated && hasParticipant) void loadPaymentInfo();
  }, [isAuthenticated, hasParticipant]);
  if (!isAuthenticated) return <LoginRequired />;
  if (!hasParticipant) {
    // An administrator's account without a participant: no fee, and the server takes no order.
    return (
      <Panel heading={t('title')} headingId="pay-heading" wide testId="pay-page">
        <div className={styles.sections}>
          <p data-testid="pay-no-participant">{t('noParticipant')}</p>
          <FundraisingTotals />
        </div>
      </Panel>
    );
  }

  const failed = info === null && status === 'error';
  const paid = info?.isPaid === true;
  const unpaid = info?.isPaid === false || failed;
  const teamOffer = teamFeeOffer(info);
  // The fees and the company fee are the site edition's: the page draws once it is known.
  return (
    <EditionGate testId="pay-edition">
      {(edition) => (
        <Panel heading={t('title')} headingId="pay-heading" wide testId="pay-page">
          <div className={styles.sections}>
            {info === null && !failed && <LoadingPanel label={t('loading', { ns: 'common' })} testId="pay-loading" />}
            {failed && <LoadFailed code="GENERIC_ERROR" onRetry={() => void loadPaymentInfo()} testId="pay-info-retry" />}
            {paid && (
              <p className={styles.paid} data-testid="pay-paid">
                {t('paid')}
              </p>
            )}
            {teamOffer && paid && <TeamFeeForm offer={teamOffer} edition={edition} />}
            {paid && <DonationForm edition={edition} />}
            {info && !info.isPaid && <FeeForm info={info} offer={teamOffer} edition={edition} />}
            <FundraisingTotals />

            {unpaid && (
              <>
                <div>
                  <FeeRules />
                  <p className={styles.note}>{t('company', { amount: formatEuros(edition.fees.companyPerPersonCents, lang) })}</p>
                </div>
                <BankTransfer />
                {EVENT_REGISTRATION_URL && (
                  <p className={panelStyles.footer}>
                    {t('registrationSite.text')}{' '}
                    <a href={EVENT_REGISTRATION_URL} target="_blank" rel="noopener noreferrer" data-testid="event-registration-link">
                      {t('registrationSite.link')}
                    </a>
                  </p>
                )}
              </>
            )}
          </div>
        </Panel>
      )}
    </EditionGate>
  );
}
