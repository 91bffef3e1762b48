import type { InputHTMLAttributes } from 'react';
import styles from './form.module.css';

export type DecimalInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'value' | 'onChange'> & {
  /** The text as typed ("4,2", "4 200"); the form reads it with parseDecimal (lib/parse-decimal.ts). */
  value: string;
  onChange: (value: string) => void;
  /** Attributes such as data-testid or data-autofocus. */
  [data: `data-${string}`]: string | boolean | undefined;
};

/**
 * A number field as GOV.UK builds one: a text input with inputmode="decimal" (a phone shows its
 * number pad with the locale's separator), never a number input, which some browsers empty or read
 * without its decimal comma. The text is kept as typed; parseDecimal judges it on submit and the
 * surrounding FieldFrame shows what to type instead.
 */
export function DecimalInput({ value, onChange, className, ...rest }: DecimalInputProps) {
  return (
    <input
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      className={className ?? styles.input}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...rest}
    />
  );
}
