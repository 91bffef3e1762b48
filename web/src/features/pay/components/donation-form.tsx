import type { Edition } from '@sinilill/domain';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import formStyles from '../../../components/ui/form/form.module.css';
import { formatEuros } from '../../../lib/format-money';
import { useLang } from '../../../lib/use-lang';
import { usePlaceOrder } from '../api/use-place-order';
import { usePayChoiceStore } from '../stores/pay-choice-store';
import { amountInputCents, amountInputText } from '../utils/amount';
import { DEFAULT_COUNTRY } from '../utils/methods';
import { AmountField } from './amount-field';
import { OrderButton } from './order-button';
import styles from './pay.module.css';

/**
 * The donation form of a participant whose fee is paid (spec §2 "Already paid: donation form
 * (amount, min 1, default 5, donate button)"; amounts from the edition, in EUR cents). No bank
 * is chosen here: the provider's checkout page offers them (spec §5: NOT_SELECTED only for the fee).
 */
export function DonationForm({ edition }: { edition: Edition }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const { donationDefaultCents, donationMinCents } = edition.fees;
  const country = usePayChoiceStore((s) => s.country) ?? DEFAULT_COUNTRY;
  const [amount, setAmount] = useState(() => amountInputText(donationDefaultCents, lang));
  const order = usePlaceOrder();
  const amountInput = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const cents = amountInputCents(amount);
    const code = await order.place({ isPaid: true, country, methodCode: null, cents, minCents: donationMinCents, methodRequired: false });
    if (code === 'AMOUNT_TOO_LOW') amountInput.current?.focus();
  };

  return (
    <section className={styles.form} aria-labelledby="donation-heading">
      <h2 id="donation-heading" className={styles.heading}>
        {t('donation.heading')}
      </h2>
      <p>{t('donation.intro')}</p>
      <form className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="pay-donation-form">
        {order.code && <ErrorAlert code={order.code} />}
        <AmountField
          name="donation"
          label={t('donation.amount')}
          hint={t('donation.amountHint', { amount: formatEuros(donationMinCents, lang) })}
          value={amount}
          onChange={setAmount}
          invalid={order.code === 'AMOUNT_TOO_LOW'}
          testId="donation-amount"
          inputRef={amountInput}
        />
        <OrderButton order={order} label={t('donation.submit')} testId="donation-submit" />
      </form>
    </section>
  );
}
