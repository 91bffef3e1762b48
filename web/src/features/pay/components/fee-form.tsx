import type { PaymentInfoAnswer } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';
import { type FormEvent, type ReactNode, useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { FieldFrame, RadioGroup } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoadingPanel } from '../../../components/ui/spinner';
import { formatEuros } from '../../../lib/format-money';
import { useSessionStore } from '../../../lib/session-store';
import { queryKeys } from '../../../lib/query-client';
import { useFetched } from '../../../lib/use-fetched';
import { useLang } from '../../../lib/use-lang';
import { getPaymentMethods } from '../api/get-payment-methods';
import { getTeamMembers } from '../api/get-team-members';
import { usePlaceOrder } from '../api/use-place-order';
import { usePayChoiceStore } from '../stores/pay-choice-store';
import { amountInputCents, amountInputText } from '../utils/amount';
import { chosenMethod, countryName, initialCountry, listedCountries, methodsOf, type PaymentCountry } from '../utils/methods';
import { type TeamFeeOffer, unpaidTeammateNames, unpaidTeammates } from '../utils/team-fee';
import { AmountField } from './amount-field';
import { BankChoice } from './bank-choice';
import { LoadFailed } from './load-failed';
import { OrderButton } from './order-button';
import styles from './pay.module.css';

/**
 * The participation fee by bank link (spec §2 "Payment", not paid), as one form: first what to
 * pay for — shown only to the captain of a company team whose other members have not all paid
 * (`offer`): their own fee, or theirs and their unpaid teammates' (named, with the sum) — then the country of the bank (the provider's countries in reverse order, EE first
 * chosen), the bank buttons, the amount (the fee or the team's sum, or more: a custom amount may
 * not undercut it), the total and the pay button, which sends the browser to the provider's
 * checkout. The payer's fee is `info.feeCents` (EUR cents: 15 € born 2010 or earlier, 5 € born
 * 2011 or later, 15 € in a company team whatever the birth year).
 */
export function FeeForm({ info, offer, edition }: { info: PaymentInfoAnswer; offer: TeamFeeOffer | null; edition: Edition }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const [forTeam, setForTeam] = useState(false);
  const teammates = unpaidTeammates(offer, false);
  const teamOffer = offer !== null && teammates > 0 ? offer : null;
  const yours = info.company
    ? t('fee.yoursCompany', { amount: formatEuros(info.feeCents, lang) })
    : info.isChild
      ? t('fee.yoursChild', { amount: formatEuros(info.feeCents, lang), year: edition.fees.childFromBirthYear })
      : t('fee.yours', { amount: formatEuros(info.feeCents, lang) });
  const payingForTeam = teamOffer !== null && forTeam;
  return (
    <BankLinkSection headingId="fee-form-heading" heading={t('fee.heading')} intro={<p data-testid="pay-fee">{yours}</p>}>
      {(countries) => (
        <FeeOrderForm
          minCents={payingForTeam ? teamOffer.totalCents : info.feeCents}
          countries={countries}
          forTeam={payingForTeam}
          testId="pay-fee-form"
          payFor={
            teamOffer && (
              <PayForChoice feeCents={info.feeCents} offer={teamOffer} teammates={teammates} forTeam={forTeam} onChange={setForTeam} />
            )
          }
        />
      )}
    </BankLinkSection>
  );
}

/**
 * A company team captain's choice of what to pay for: their own fee, or theirs and their
 * `teammates` unpaid teammates' (the team's sum; the teammates named once the team's members are
 * read, the count alone if that read fails).
 */
function PayForChoice(props: { feeCents: number; offer: TeamFeeOffer; teammates: number; forTeam: boolean; onChange: (forTeam: boolean) => void }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const teamId = useSessionStore((s) => s.identity.teamId);
  const participantId = useSessionStore((s) => s.identity.participantId);
  const fetchMembers = useCallback((signal: AbortSignal) => getTeamMembers(teamId ?? 0, signal), [teamId]);
  const members = useFetched(queryKeys.teamMembersToPay(teamId), fetchMembers);
  const names = members.status === 'ready' ? unpaidTeammateNames(members.data, participantId) : [];
  const listed = names.length > 0 ? new Intl.ListFormat(lang, { type: 'conjunction' }).format(names) : null;
  return (
    <RadioGroup
      name="pay-for"
      legend={t('choice.legend')}
      value={props.forTeam ? 'team' : 'self'}
      onChange={(value) => props.onChange(value === 'team')}
      options={[
        { value: 'self', label: t('choice.self', { amount: formatEuros(props.feeCents, lang) }) },
        {
          value: 'team',
          label: t('choice.team', { count: props.teammates, total: formatEuros(props.offer.totalCents, lang) }),
          ...(listed ? { description: t('choice.names', { count: names.length, names: listed }) } : {}),
        },
      ]}
    />
  );
}

/**
 * A company team's fee for every unpaid member at once (spec §9 "company team 15 EUR per person"),
 * offered to the team's captain once their own fee is paid (before that the
 * fee form offers it): how many members have not paid and the
 * total (15 € each), then the same bank form as the fee's, which orders with `forTeam`. The
 * server works out whom it covers and marks them all paid when the bank confirms.
 */
export function TeamFeeForm({ offer, edition }: { offer: TeamFeeOffer; edition: Edition }) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const fee = formatEuros(edition.fees.companyPerPersonCents, lang);
  const intro = (
    <>
      <p data-testid="pay-team-unpaid">{t('team.unpaid', { count: offer.unpaidMembers })}</p>
      <p data-testid="pay-team-summary">
        {t('team.total', { count: offer.unpaidMembers, fee, total: formatEuros(offer.totalCents, lang) })}
      </p>
    </>
  );
  return (
    <BankLinkSection headingId="team-fee-heading" heading={t('team.heading')} intro={intro} testId="pay-team-fee">
      {(countries) => (
        <FeeOrderForm minCents={offer.totalCents} countries={countries} forTeam testId="pay-team-form" idPrefix="pay-team" submitLabel={t('team.submit')} />
      )}
    </BankLinkSection>
  );
}

/** A heading, its text and, once the provider's banks are known, the bank form `children` draws. */
function BankLinkSection(props: {
  headingId: string;
  heading: string;
  intro: ReactNode;
  testId?: string;
  children: (countries: readonly PaymentCountry[]) => ReactNode;
}) {
  const { t } = useTranslation('pay');
  const methods = useFetched(queryKeys.paymentMethods, getPaymentMethods);
  const answer = methods.status === 'ready' ? methods.data : null;
  const countries = useMemo(() => (answer ? listedCountries(answer) : []), [answer]);
  return (
    <section className={styles.form} aria-labelledby={props.headingId} data-testid={props.testId}>
      <h2 id={props.headingId} className={styles.heading}>
        {props.heading}
      </h2>
      {props.intro}
      {methods.status === 'loading' && <LoadingPanel label={t('fee.banksLoading')} testId="pay-methods-loading" />}
      {methods.status === 'error' && <LoadFailed code={methods.code} onRetry={methods.reload} testId="pay-methods-retry" />}
      {methods.status === 'ready' &&
        (countries.length === 0 ? (
          <p className={styles.note} data-testid="pay-no-methods">
            {t('fee.noBanks')}
          </p>
        ) : (
          props.children(countries)
        ))}
    </section>
  );
}

interface FeeOrderFormProps {
  /** The least that may be paid, EUR cents (the amount starts there): the fee, or the team's total. */
  minCents: number;
  countries: readonly PaymentCountry[];
  /** Order the team fee instead of the payer's own. */
  forTeam?: boolean;
  testId: string;
  /** The start of the fields' test ids; default 'pay'. */
  idPrefix?: string;
  /** What to pay for, above the country (FeeForm's choice for a captain); none by default. */
  payFor?: ReactNode;
  /** The pay button's text; default fee.submit. */
  submitLabel?: string;
}

/** The form itself, once the banks are known. */
function FeeOrderForm({ minCents, countries, forTeam = false, testId, idPrefix = 'pay', payFor, submitLabel }: FeeOrderFormProps) {
  const { t } = useTranslation('pay');
  const lang = useLang();
  const countryId = useId();
  const choice = usePayChoiceStore();
  const country = initialCountry(countries, choice.country);
  const banks = methodsOf(countries, country);
  const methodCode = chosenMethod(banks, choice.methodCode);
  // What the payer typed, for the least amount it was typed against: choosing another thing to
  // pay for (another least amount) starts the amount again from that one.
  const [typed, setTyped] = useState<{ text: string; minCents: number } | null>(null);
  const amount = typed !== null && typed.minCents === minCents ? typed.text : amountInputText(minCents, lang);
  const cents = amountInputCents(amount);
  const order = usePlaceOrder();
  const firstBank = useRef<HTMLButtonElement>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const prefix = idPrefix;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (country === null) return;
    const code = await order.place({ isPaid: false, country, methodCode, cents, minCents, methodRequired: true, ...(forTeam ? { forTeam } : {}) });
    if (code === 'NOT_SELECTED') firstBank.current?.focus();
    if (code === 'AMOUNT_TOO_LOW') amountInput.current?.focus();
  };

  return (
    <form className={formStyles.form} noValidate onSubmit={(event) => void onSubmit(event)} data-testid={testId}>
      {order.code && <ErrorAlert code={order.code} />}
      {payFor}
      <FieldFrame id={countryId} label={t('fee.country')} problem={undefined}>
        {(aria) => (
          <select
            id={countryId}
            name="country"
            className={formStyles.select}
            value={country ?? ''}
            onChange={(event) => choice.chooseCountry(event.target.value)}
            data-testid={`${prefix}-country`}
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
        hint={t('fee.amountHint', { amount: formatEuros(minCents, lang) })}
        value={amount}
        onChange={(text) => setTyped({ text, minCents })}
        invalid={order.code === 'AMOUNT_TOO_LOW'}
        testId={`${prefix}-amount`}
        inputRef={amountInput}
      />
      <p className={styles.total}>
        {t('fee.total')} <strong data-testid={`${prefix}-total`}>{cents === null ? '–' : formatEuros(cents, lang)}</strong>
      </p>
      <OrderButton order={order} label={submitLabel ?? t('fee.submit')} testId={`${prefix}-submit`} />
    </form>
  );
}
