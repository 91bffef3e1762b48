import { useTranslation } from 'react-i18next';
import { CheckIcon, CrossIcon, PencilIcon } from '../../../../components/ui/icons';
import formStyles from '../../../../components/ui/form/form.module.css';
import styles from './console.module.css';

/**
 * A person's name, or for an erased person (null, spec §3: personal data is null once erased)
 * "(deleted)" in muted italics.
 */
export function PersonName({ name }: { name: string | null }) {
  const { t } = useTranslation('admin');
  return name === null ? <span className={styles.muted}>{t('console.deleted')}</span> : <>{name}</>;
}

/** A value, or an em dash (read as "none") when there is none: an erased e-mail, a missing team. */
export function OrDash({ value }: { value: string | null }) {
  const { t } = useTranslation('admin');
  if (value !== null && value !== '') return <>{value}</>;
  return (
    <span className={styles.muted}>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{t('console.none')}</span>
    </span>
  );
}

export interface ToggleButtonProps {
  /** The state the server last confirmed (aria-pressed). */
  pressed: boolean;
  /** The request is under way: the button is disabled and does not change yet (spec §4). */
  pending: boolean;
  /** Accessible name, the same in both states, e.g. "Fee paid: Mari Maasikas". */
  label: string;
  onToggle: () => void;
  testId: string;
}

/**
 * A yes/no cell that changes on click (the users tab's paid and approved, spec §2): a tick when
 * pressed, a cross when not; aria-pressed says which. It shows the server's state only — the
 * caller flips `pressed` after the server reported success.
 */
export function ToggleButton({ pressed, pending, label, onToggle, testId }: ToggleButtonProps) {
  return (
    <button
      type="button"
      className={styles.toggle}
      aria-pressed={pressed}
      aria-busy={pending}
      disabled={pending}
      onClick={onToggle}
      aria-label={label}
      title={label}
      data-testid={testId}
    >
      {pressed ? <CheckIcon size={18} /> : <CrossIcon size={18} />}
    </button>
  );
}

/** A row's pencil (test id `admin-edit`), named by `label`, e.g. "Edit Mari Maasikas". */
export function EditButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      className={formStyles.iconButton}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      data-testid="admin-edit"
    >
      <PencilIcon size={18} />
    </button>
  );
}
