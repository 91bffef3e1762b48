import { type ReactNode, type Ref, useId } from 'react';
import { FieldFrame } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { acceptAmountInput } from '../utils/amount';
import styles from './pay.module.css';

export interface AmountFieldProps {
  name: string;
  label: ReactNode;
  hint: ReactNode;
  /** The text as typed: euros, "15.00" or "15,5" (amount.ts reads it as cents). */
  value: string;
  onChange: (value: string) => void;
  /** The amount was refused (AMOUNT_TOO_LOW, shown in the form's alert). */
  invalid: boolean;
  testId: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled amount of euros: a text input with the decimal keypad on phones (a number input
 * would fight a comma typed in Estonian), holding only an amount or the start of one
 * (acceptAmountInput), with a euro sign after it.
 */
export function AmountField({ name, label, hint, value, onChange, invalid, testId, inputRef }: AmountFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} problem={undefined}>
      {(aria) => (
        <span className={styles.amount}>
          <input
            ref={inputRef}
            id={id}
            name={name}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={`${formStyles.input} ${styles.amountInput}`}
            value={value}
            required
            onChange={(event) => onChange(acceptAmountInput(value, event.target.value))}
            {...aria}
            aria-invalid={invalid}
            data-testid={testId}
          />
          <span aria-hidden="true">€</span>
        </span>
      )}
    </FieldFrame>
  );
}
