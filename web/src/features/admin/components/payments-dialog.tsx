import type { AdminPaymentOrder } from '@sinilill/contracts';
import { REFUND_REASON_MAX } from '@sinilill/contracts';
import { eurosToCents } from '@sinilill/domain';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { ModalDialog } from '../../../components/ui/dialog/modal-dialog';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoadingPanel } from '../../../components/ui/spinner';
import { errorCodeOf } from '../../../lib/api-client';
import type { CatalogueCode } from '../../../lib/errors/catalogue';
import { formatEuros } from '../../../lib/format-money';
import { checkText, type FieldProblem } from '../../../lib/form-validation';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { getParticipantPayments, refundOrder } from '../api/payments';
import { checkRefundAmount, refundableCents } from '../utils/refund';
import styles from './console/console.module.css';

/** Whose payments the dialog shows: a participant and the name to call them by. */
export interface PaymentsTarget {
  participantId: number;
  name: string;
}

export interface PaymentsDialogProps {
  /** Null: closed. */
  target: PaymentsTarget | null;
  onClose: () => void;
  /** The server recorded a refund at `position` (the console refreshes: paid flags may change). */
  onRefunded: (position: number) => void;
}

/**
 * The users tab's payments dialog (test id `admin-payments-dialog`): the orders a
 * participant paid and the team fees that covered them — reference, what it paid for, status,
 * amount and what was refunded — and, for a paid order with money left, a refund form: the amount
 * in EUR (empty: all that is left) and the reason, then the site's confirmation dialog before
 * POST /api/admin/payment/{order}/refund. The refund itself is made at the bank or the payment
 * provider; this records it (the totals go down, a full refund of a fee unmarks whom it paid for).
 */
export function PaymentsDialog({ target, onClose, onRefunded }: PaymentsDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <ModalDialog open={target !== null} onClose={onClose} title={t('payments.title', { name: target?.name ?? '' })} testId="admin-payments-dialog">
      {target && <PaymentsPanel key={target.participantId} participantId={target.participantId} onClose={onClose} onRefunded={onRefunded} />}
    </ModalDialog>
  );
}

type Loaded = { status: 'loading' } | { status: 'ready'; orders: readonly AdminPaymentOrder[] } | { status: 'error'; code: CatalogueCode };

function PaymentsPanel({ participantId, onClose, onRefunded }: { participantId: number; onClose: () => void; onRefunded: (position: number) => void }) {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [position, setPosition] = useState<number | undefined>(undefined);
  const [chosen, setChosen] = useState<AdminPaymentOrder | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    getParticipantPayments(participantId, { signal: controller.signal, ...(position ? { minPosition: position } : {}) }).then(
      (answer) => setLoaded({ status: 'ready', orders: answer.orders }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ status: 'error', code: errorCodeOf(error) });
      },
    );
    return () => controller.abort();
  }, [participantId, position]);

  const euros = (value: number) => formatEuros(eurosToCents(value) ?? 0, lang);
  const kindText = (order: AdminPaymentOrder) =>
    order.kind === 'donation' ? t('payments.kind.donation') : order.covers.length > 0 ? t('payments.kind.team', { count: order.covers.length }) : t('payments.kind.fee');

  return (
    <div className={styles.dialogBody}>
      {loaded.status === 'loading' && <LoadingPanel label={t('console.loading')} testId="admin-payments-loading" />}
      {loaded.status === 'error' && <ErrorAlert code={loaded.code} />}
      {loaded.status === 'ready' && loaded.orders.length === 0 && <p data-testid="admin-payments-none">{t('payments.none')}</p>}
      {loaded.status === 'ready' && loaded.orders.length > 0 && (
        <table data-testid="admin-payments-table">
          <caption className="sr-only">{t('payments.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('payments.reference')}</th>
              <th scope="col">{t('payments.kind.heading')}</th>
              <th scope="col">{t('payments.status.heading')}</th>
              <th scope="col">{t('payments.amount')}</th>
              <th scope="col">{t('payments.refunded')}</th>
              <th scope="col">
                <span className="sr-only">{t('payments.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaded.orders.map((order) => (
              <tr key={order.orderId} data-testid="admin-payment-row" data-reference={order.reference}>
                <th scope="row" className={styles.nowrap}>
                  {order.reference}
                </th>
                <td>{kindText(order)}</td>
                <td>{t(`payments.status.${order.status}`)}</td>
                <td className={styles.nowrap}>{euros(order.amount)}</td>
                <td className={styles.nowrap} data-testid="admin-payment-refunded">
                  {euros(order.refunded)}
                </td>
                <td>
                  {refundableCents(order) > 0 && (
                    <button
                      type="button"
                      className={formStyles.buttonSecondary}
                      onClick={() => setChosen(order)}
                      aria-label={t('payments.refundLabel', { reference: order.reference })}
                      data-testid="admin-refund-open"
                    >
                      {t('payments.refund')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chosen && (
        <RefundForm
          key={chosen.orderId}
          order={chosen}
          onCancel={() => setChosen(null)}
          onRefunded={(at) => {
            setChosen(null);
            setPosition(at);
            onRefunded(at);
          }}
        />
      )}
      <div className={`${formStyles.actions} ${styles.dialogActions}`}>
        <button type="button" className={formStyles.buttonSecondary} onClick={onClose} data-testid="admin-payments-close">
          {t('payments.close')}
        </button>
      </div>
    </div>
  );
}

/** The refund of one order: amount and reason, checked, then confirmed in the site's own dialog. */
function RefundForm({ order, onCancel, onRefunded }: { order: AdminPaymentOrder; onCancel: () => void; onRefunded: (position: number) => void }) {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const form = useRef<HTMLFormElement>(null);
  const left = refundableCents(order);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState<{ cents: number | null } | null>(null);
  // One key per form: a resent request (a retry after a lost answer) records the refund once (docs/decisions/0007).
  const [idempotencyKey] = useState(() => `refund-${crypto.randomUUID()}`);
  const action = useAction(refundOrder);

  const amountCheck = checkRefundAmount(amount, left);
  const problems: { amount?: FieldProblem; reason?: FieldProblem } = submitted
    ? {
        ...(amountCheck.ok ? {} : { amount: { kind: 'code', code: amountCheck.code } }),
        ...(checkText(reason, { max: REFUND_REASON_MAX }) ? { reason: checkText(reason, { max: REFUND_REASON_MAX })! } : {}),
      }
    : {};

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!amountCheck.ok) return focusField(form.current, 'amount');
    if (checkText(reason, { max: REFUND_REASON_MAX })) return focusField(form.current, 'reason');
    action.reset();
    setConfirming({ cents: amountCheck.cents });
  }

  const confirm = useCallback(async () => {
    if (!confirming) return;
    const cents = confirming.cents;
    const outcome = await action.run(order.orderId, { ...(cents === null ? {} : { amount: cents / 100 }), reason: reason.trim() }, idempotencyKey);
    if (!outcome.ok) return;
    setConfirming(null);
    onRefunded(outcome.result.position);
  }, [confirming, action, order.orderId, reason, idempotencyKey, onRefunded]);

  const refundText = formatEuros(confirming?.cents ?? left, lang);
  return (
    <form ref={form} className={formStyles.form} onSubmit={submit} noValidate data-testid="admin-refund-form">
      <h3>{t('payments.refundTitle', { reference: order.reference })}</h3>
      <TextField
        name="amount"
        label={t('payments.refundAmount')}
        hint={t('payments.refundAmountHint', { amount: formatEuros(left, lang) })}
        value={amount}
        onChange={setAmount}
        problem={problems.amount}
        autoComplete="off"
        inputProps={{ 'data-autofocus': '', 'data-testid': 'admin-refund-amount' }}
      />
      <TextField
        name="reason"
        label={t('payments.refundReason')}
        hint={t('payments.refundReasonHint', { max: REFUND_REASON_MAX })}
        value={reason}
        onChange={setReason}
        problem={problems.reason}
        autoComplete="off"
        inputProps={{ 'data-testid': 'admin-refund-reason' }}
      />
      <div className={`${formStyles.actions} ${styles.dialogActions}`}>
        <button type="button" className={formStyles.buttonSecondary} onClick={onCancel}>
          {t('console.cancel')}
        </button>
        <button type="submit" className={formStyles.button} data-testid="admin-refund-submit">
          {t('payments.refund')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
        title={t('payments.confirmTitle')}
        confirmLabel={t('payments.confirm', { amount: refundText })}
        cancelLabel={t('console.cancel')}
        pending={action.pending}
        pendingLabel={t('payments.refunding')}
        errorCode={action.state.status === 'error' ? action.state.code : null}
        danger
        testId="admin-refund-confirm"
      >
        <p>{t('payments.confirmText', { amount: refundText, reference: order.reference })}</p>
        {order.kind === 'fee' && (confirming?.cents ?? left) === left && <p>{t('payments.confirmFull')}</p>}
        <p>{t('payments.confirmReason', { reason: reason.trim() })}</p>
      </ConfirmDialog>
    </form>
  );
}
