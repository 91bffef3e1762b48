import { type ChangeEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProblem } from '../../../lib/form-validation';
import { problemText } from './problem-text';
import styles from './form.module.css';

export interface FieldFrameProps {
  id: string;
  label: ReactNode;
  problem: FieldProblem | undefined;
  hint?: ReactNode;
  children: (aria: { 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}

/** Label, control, hint and problem message, wired with aria-invalid and aria-describedby. */
export function FieldFrame({ id, label, problem, hint, children }: FieldFrameProps) {
  const { t } = useTranslation();
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const describedBy = [problemId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children({ 'aria-invalid': problem !== undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {problem && (
        <p id={problemId} className={styles.problem}>
          {problemText(t, problem)}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps {
  name: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  problem?: FieldProblem;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  hint?: ReactNode;
  /** Attributes passed to the input (e.g. a data-testid). */
  inputProps?: Record<`data-${string}`, string>;
}

/**
 * A labelled text input. Lengths are checked by the form (form-validation.ts), not by a maxlength
 * attribute, which would silently cut a pasted text.
 */
export function TextField({ name, label, value, onChange, problem, type = 'text', autoComplete, hint, inputProps }: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} problem={problem} hint={hint}>
      {(aria) => (
        <input
          id={id}
          name={name}
          type={type}
          className={styles.input}
          value={value}
          autoComplete={autoComplete}
          required
          onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
          {...aria}
          {...inputProps}
        />
      )}
    </FieldFrame>
  );
}

export interface SelectFieldProps {
  name: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** The empty first option ("Choose…"): a required select starts unchosen. */
  placeholder: string;
  problem?: FieldProblem;
  autoComplete?: string;
  /** Attributes passed to the select (e.g. a data-testid). */
  selectProps?: Record<`data-${string}`, string>;
}

/** A labelled native select (keyboard and screen-reader friendly, a native picker on phones). */
export function SelectField({ name, label, value, onChange, options, placeholder, problem, autoComplete, selectProps }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} problem={problem}>
      {(aria) => (
        <select
          id={id}
          name={name}
          className={styles.select}
          value={value}
          autoComplete={autoComplete}
          required
          onChange={(event) => onChange(event.target.value)}
          {...aria}
          {...selectProps}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export interface RadioGroupProps {
  name: string;
  legend: ReactNode;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string; description?: string }[];
  problem?: FieldProblem;
}

/** A required choice among a few options, as large selectable cards. */
export function RadioGroup({ name, legend, value, onChange, options, problem }: RadioGroupProps) {
  const { t } = useTranslation();
  const id = useId();
  const problemId = problem ? `${id}-problem` : undefined;
  return (
    <fieldset className={styles.fieldset} aria-describedby={problemId}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.choices}>
        {options.map((option) => (
          <label key={option.value} className={styles.choice}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              required
              aria-invalid={problem !== undefined}
              aria-describedby={problemId}
              onChange={() => onChange(option.value)}
            />
            <span className={styles.choiceText}>
              <span className={styles.choiceLabel}>{option.label}</span>
              {option.description && <span className={styles.choiceDescription}>{option.description}</span>}
            </span>
          </label>
        ))}
      </div>
      {problem && (
        <p id={problemId} className={styles.problem}>
          {problem.kind === 'required' ? t('form.chooseOne') : problemText(t, problem)}
        </p>
      )}
    </fieldset>
  );
}

export interface SwitchFieldProps {
  name: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** An on/off switch: a checkbox with role="switch", styled as a toggle. */
export function SwitchField({ name, label, checked, onChange }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className={styles.switchField}>
      <input
        id={id}
        name={name}
        type="checkbox"
        role="switch"
        className={styles.switch}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
