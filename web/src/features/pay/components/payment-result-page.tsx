import { Link } from '@tanstack/react-router';
import type { PaymentOrderStatusAnswer } from '@sinilill/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel } from '../../../components/ui/panel';
import { isCatalogueCode } from '../../../lib/errors/catalogue';
import { formatEuros } from '../../../lib/format-money';
import { usePaymentInfoStore } from '../../../lib/payment-info-store';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { getPaymentOrder } from '../api/get-payment-order';
import { refreshAfterPayment } from '../api/refresh-session';
import { amountCents, centsOfEuros } from '../utils/amount';
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
 * required.
 *
 * The address can be typed by anyone, so its status, amount and code are shown only as what the
 * bank reported; what counts is said separately: the order as the server knows it (GET
 * /api/payment/order/{reference}: its status and amount in EUR, asked again a few times while it
 * is pending, since the confirmation may still be on its way) and the fee (GET
 * /api/payment/info, read afresh here). On success
 * the session is refreshed too, so the not-paid banner goes and the donate link comes without a
 * new login. A refusal's catalogue code shows as its text (spec §8). Ways on: the team page (for
 * a member of a team), /pay after a failure, and home.
 */
export function PaymentResultPage({ status, amount, code }: PaymentResultPageProps) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const hasTeam = useSessionStore((s) => s.identity.teamId !== null);
  const success = status === 'success';
  const title = success ? t('result.successTitle') : t('result.failedTitle');
  useDocumentTitle(title);
  // Once per visit (StrictMode runs effects twice in development: the ref remembers).
  const refreshed = useRef(false);
  useEffect(() => {
    if (!isAuthenticated || refreshed.current) return;
    refreshed.current = true;
    if (success) void refreshAfterPayment();
    else void usePaymentInfoStore.getState().load();
  }, [success, isAuthenticated]);
  if (!isAuthenticated) return <LoginRequired />;

  const cents = amountCents(amount);
  // The server names a refusal (INVALID_NOTIFICATION, PAYMENT_PROVIDER_UNAVAILABLE) by its code.
  const refusal = !success && isCatalogueCode(code) ? code : null;
  const reference = refusal ? undefined : code;
  return (
    <Panel heading={title} headingId="payment-result-heading" wide testId={`payment-${status}`}>
      <div className={styles.sections}>
        <section aria-labelledby="payment-reported-heading">
          <h2 id="payment-reported-heading" className={styles.heading}>
            {t('result.reportedHeading')}
          </h2>
          <p className={success ? styles.paid : styles.failed} role={success ? 'status' : 'alert'}>
            {success ? t('result.successText') : t('result.failedText')}
          </p>
          {refusal && <ErrorAlert code={refusal} />}
          {((success && cents !== null) || reference) && (
            <dl className={`${styles.details} ${styles.reported}`}>
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
        </section>
        {reference && <OrderState reference={reference} />}
        <ServerState />
        <div className={styles.actions}>
          {!success && (
            <Link to="/pay" className={formStyles.button} data-testid="payment-retry">
              {t('result.tryAgain')}
            </Link>
          )}
          {hasTeam && (
            <Link to="/team" className={success ? formStyles.button : formStyles.buttonSecondary} data-testid="payment-team">
              {t('result.team')}
            </Link>
          )}
          <Link to="/" className={success && !hasTeam ? formStyles.button : formStyles.buttonSecondary} data-testid="payment-home">
            {t('result.home')}
          </Link>
        </div>
      </div>
    </Panel>
  );
}

/** The participation fee as the server knows it (GET /api/payment/info), whatever the address says. */
function ServerState() {
  const { t } = useTranslation('pay');
  const status = usePaymentInfoStore((s) => s.status);
  const info = usePaymentInfoStore((s) => s.info);
  const state = info ? (info.isPaid ? 'paid' : 'unpaid') : status === 'error' ? 'unknown' : 'loading';
  return (
    <section aria-labelledby="payment-server-heading">
      <h2 id="payment-server-heading" className={styles.heading}>
        {t('result.serverHeading')}
      </h2>
      <div role="status">
        <p className={state === 'paid' ? styles.paid : undefined} data-testid="payment-server-state" data-state={state}>
          {t(`result.server.${state}`)}
        </p>
        {state === 'unpaid' && <p className={styles.note}>{t('result.confirmNote')}</p>}
      </div>
    </section>
  );
}

/** How often, and how many times, a pending order is asked again. */
const ORDER_POLL_MS = 1500;
const ORDER_POLLS = 8;

type OrderFetch = { state: 'loading' } | { state: 'ready'; order: PaymentOrderStatusAnswer } | { state: 'unknown' };

/**
 * The order of `reference` as the server knows it (GET /api/payment/order/{reference}), whatever
 * the address says: its status and amount. While it is pending it is asked again, up to
 * ORDER_POLLS times. An unknown reference, another person's, or a failed call shows as "could
 * not be found".
 */
function OrderState({ reference }: { reference: string }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const [fetched, setFetched] = useState<OrderFetch>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (polls: number) => {
      getPaymentOrder(reference, controller.signal).then(
        (order) => {
          if (controller.signal.aborted) return;
          setFetched({ state: 'ready', order });
          if (order.status === 'pending' && polls > 1) timer = setTimeout(() => ask(polls - 1), ORDER_POLL_MS);
        },
        () => {
          if (!controller.signal.aborted) setFetched({ state: 'unknown' });
        },
      );
    };
    ask(ORDER_POLLS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [reference]);
  const state = fetched.state === 'ready' ? fetched.order.status : fetched.state;
  return (
    <section aria-labelledby="payment-order-heading">
      <h2 id="payment-order-heading" className={styles.heading}>
        {t('result.orderHeading')}
      </h2>
      <div role="status">
        <p className={state === 'paid' ? styles.paid : state === 'failed' ? styles.failed : undefined} data-testid="payment-order-state" data-state={state}>
          {t(`result.order.${state}`)}
        </p>
        {fetched.state === 'ready' && (
          <dl className={styles.details}>
            <div>
              <dt>{t(`result.order.kind.${fetched.order.kind}`)}</dt>
              <dd data-testid="payment-order-amount">{formatEuros(centsOfEuros(fetched.order.amount), lang)}</dd>
            </div>
          </dl>
        )}
      </div>
    </section>
  );
}
