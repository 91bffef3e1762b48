import { useId, type ReactNode } from 'react';
import formStyles from '../../../../components/ui/form/form.module.css';

export interface AuditFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** What is wrong, already in words (the audit's own checks are not spec §5 problems). */
  problem?: string;
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}

/**
 * A labelled control of the audit forms with its hint and problem wired through
 * aria-describedby and aria-invalid. The shared FieldFrame (components/ui/form) takes only the
 * spec's problem kinds, which cannot say "enter a positive whole number"; the look is the same.
 */
export function AuditField({ label, hint, problem, children }: AuditFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  return (
    <div className={formStyles.field}>
      <label htmlFor={id} className={formStyles.label}>
        {label}
      </label>
      {children({ id, 'aria-invalid': problem !== undefined, 'aria-describedby': [problemId, hintId].filter(Boolean).join(' ') || undefined })}
      {hint && (
        <p id={hintId} className={formStyles.hint}>
          {hint}
        </p>
      )}
      {problem && (
        <p id={problemId} className={formStyles.problem}>
          {problem}
        </p>
      )}
    </div>
  );
}
