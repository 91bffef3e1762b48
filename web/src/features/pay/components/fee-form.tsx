import type { PaymentInfoAnswer } from '@sinilill/contracts';
import { currentEdition } from '@sinilill/domain';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { FieldFrame } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoadingPanel } from '../../../components/ui/spinner';
import { formatEuros } from '../../../lib/format-money';
import { useFetched } from '../../../lib/use-fetched';
import { useLang } from '../../../lib/use-lang';
import { getPaymentMethods } from '../api/get-payment-methods';
import { usePlaceOrder } from '../api/use-place-order';
import { usePayChoiceStore } from '../stores/pay-choice-store';
import { amountInputCents, amountInputText } from '../utils/amount';
import { chosenMethod, countryName, initialCountry, listedCountries, methodsOf, type PaymentCountry } from '../utils/methods';
import { AmountField } from './amount-field';
import { BankChoice } from './bank-choice';
import { LoadFailed } from './load-failed';
import { OrderButton } from './order-button';
import styles from './pay.module.css';

/**
 * The participation fee by bank link (spec §2 "Payment", not paid): the payer's fee
 * (`info.feeCents`, EUR cents: 15 € born 2010 or earlier, 5 € born 2011 or later), the country
 * of the bank (the provider's countries in reverse order, EE first chosen), the bank buttons,
 * the amount (the fee, or more: a custom amount may not undercut the fee), the total and the pay
 * button, which sends the browser to the provider's checkout.
 */
export function FeeForm({ info }: { info: PaymentInfoAnswer }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const methods = useFetched(getPaymentMethods);
  const answer = methods.status === 'ready' ? methods.data : null;
  const countries = useMemo(() => (answer ? listedCountries(answer) : []), [answer]);

  return (
    <section className={styles.form} aria-labelledby="fee-form-heading">
      <h2 id="fee-form-heading" className={styles.heading}>
        {t('fee.heading')}
      </h2>
      <p data-testid="pay-fee">
        {info.isChild
          ? t('fee.yoursChild', { amount: formatEuros(info.feeCents, lang), year: currentEdition.fees.childFromBirthYear })
          : t('fee.yours', { amount: formatEuros(info.feeCents, lang) })}
      </p>
      {methods.status === 'loading' && <LoadingPanel label={t('fee.banksLoading')} testId="pay-methods-loading" />}
      {methods.status === 'error' && <LoadFailed code={methods.code} onRetry={methods.reload} testId="pay-methods-retry" />}
      {methods.status === 'ready' &&
        (countries.length === 0 ? (
          <p className={styles.note} data-testid="pay-no-methods">
            {t('fee.noBanks')}
          </p>
        ) : (
          <FeeOrderForm info={info} countries={countries} />
        ))}
    </section>
  );
}

/** The form itself, once the banks are known. */
function FeeOrderForm({ info, countries }: { info: PaymentInfoAnswer; countries: readonly PaymentCountry[] }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const countryId = useId();
  const choice = usePayChoiceStore();
  const country = initialCountry(countries, choice.country);
  const banks = methodsOf(countries, country);
  const methodCode = chosenMethod(banks, choice.methodCode);
  const [amount, setAmount] = useState(() => amountInputText(info.feeCents));
  const cents = amountInputCents(amount);
  const order = usePlaceOrder();
  const firstBank = useRef<HTMLButtonElement>(null);
  const amountInput = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (country === null) return;
    const code = await order.place({ isPaid: false, country, methodCode, cents, minCents: info.feeCents, methodRequired: true });
    if (code === 'NOT_SELECTED') firstBank.current?.focus();
    if (code === 'AMOUNT_TOO_LOW') amountInput.current?.focus();
  };

  return (
    <form className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="pay-fee-form">
      {order.code && <ErrorAlert code={order.code} />}
      <FieldFrame id={countryId} label={t('fee.country')} problem={undefined}>
        {(aria) => (
          <select
            id={countryId}
            name="country"
            className={formStyles.select}
            value={country ?? ''}
            onChange={(event) => choice.chooseCountry(event.target.value)}
            data-testid="pay-country"
            {...aria}
          >
            {countries.map((entry) => (
              <option key={entry.country} value={entry.country}>
                {countryName(entry.country, lang)}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <BankChoice methods={banks} chosen={methodCode} onChoose={choice.chooseMethod} firstRef={firstBank} />
      <AmountField
        name="amount"
        label={t('fee.amount')}
        hint={t('fee.amountHint', { amount: formatEuros(info.feeCents, lang) })}
        value={amount}
        onChange={setAmount}
        invalid={order.code === 'AMOUNT_TOO_LOW'}
        testId="pay-amount"
        inputRef={amountInput}
      />
      <p className={styles.total}>
        {t('fee.total')} <strong data-testid="pay-total">{cents === null ? '–' : formatEuros(cents, lang)}</strong>
      </p>
      <OrderButton order={order} label={t('fee.submit')} testId="pay-submit" />
    </form>
  );
}
