import { SCHEMA_VERSIONS } from '@sinilill/domain';
import { useId, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import formStyles from '../../../../components/ui/form/form.module.css';
import { HISTORY_ENTITIES, type FilterField, type FilterProblem, type HistoryFilterValues } from '../utils/history-filters';
import { AuditField } from './audit-field';
import styles from './audit.module.css';

/** A filter field's problem: the form's own checks, or a missing id a button needs. */
export type ShownProblem = FilterProblem | 'teamRequired' | 'participantRequired';

/** Every event type the domain writes, for the event type field's suggestions. */
const EVENT_TYPES = Object.keys(SCHEMA_VERSIONS).sort();

export interface HistoryFilterFormProps {
  values: HistoryFilterValues;
  problems: Partial<Record<FilterField, ShownProblem>>;
  onChange: (field: FilterField, value: string) => void;
  /** Apply: load the first page for the values. */
  onApply: () => void;
  onClear: () => void;
  onOpenTeamTimeline: () => void;
  onOpenParticipantTimeline: () => void;
  formRef: RefObject<HTMLFormElement | null>;
}

/**
 * The history's filters: stream, entity type, team, participant, event type, actor
 * and a time range in Europe/Tallinn; the inputs are named as the fields (`stream`,
 * `entityType`, `teamId`, …). Apply submits; the timeline buttons open the timeline of the team
 * or participant number typed in.
 */
export function HistoryFilterForm({ values, problems, onChange, onApply, onClear, onOpenTeamTimeline, onOpenParticipantTimeline, formRef }: HistoryFilterFormProps) {
  const { t } = useTranslation('adminAudit');
  const headingId = useId();
  const eventTypesId = useId();
  const problem = (field: FilterField) => {
    const found = problems[field];
    return found ? t(`history.filters.problems.${found}`) : undefined;
  };
  const text = (field: FilterField, options: { label: string; hint?: string; inputMode?: 'numeric'; list?: string; type?: 'text' | 'datetime-local' }) => (
    <AuditField label={options.label} hint={options.hint} problem={problem(field)}>
      {(control) => (
        <input
          {...control}
          name={field}
          type={options.type ?? 'text'}
          className={formStyles.input}
          value={values[field]}
          inputMode={options.inputMode}
          list={options.list}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onChange(field, event.target.value)}
        />
      )}
    </AuditField>
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply();
  };

  return (
    <form ref={formRef} className={formStyles.form} noValidate onSubmit={onSubmit} aria-labelledby={headingId} data-testid="history-filters">
      <fieldset className={styles.filterGrid}>
        <legend id={headingId} className={styles.subheading}>
          {t('history.filters.heading')}
        </legend>
        {text('stream', { label: t('history.filters.stream'), hint: t('history.filters.streamHint') })}
        <AuditField label={t('history.filters.entityType')} problem={problem('entityType')}>
          {(control) => (
            <select {...control} name="entityType" className={formStyles.select} value={values.entityType} onChange={(event) => onChange('entityType', event.target.value)}>
              <option value="">{t('history.filters.entityAny')}</option>
              {HISTORY_ENTITIES.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`history.filters.entities.${kind}`)}
                </option>
              ))}
            </select>
          )}
        </AuditField>
        {text('teamId', { label: t('history.filters.teamId'), inputMode: 'numeric' })}
        {text('participantId', { label: t('history.filters.participantId'), inputMode: 'numeric' })}
        {text('eventType', { label: t('history.filters.eventType'), hint: t('history.filters.eventTypeHint'), list: eventTypesId })}
        {text('actor', { label: t('history.filters.actor') })}
        {text('from', { label: t('history.filters.from'), type: 'datetime-local', hint: t('history.filters.timeHint') })}
        {text('to', { label: t('history.filters.to'), type: 'datetime-local' })}
      </fieldset>
      <datalist id={eventTypesId}>
        {EVENT_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <div className={formStyles.actions}>
        <button type="submit" className={formStyles.button} data-testid="history-apply">
          {t('history.filters.apply')}
        </button>
        <button type="button" className={formStyles.buttonSecondary} onClick={onClear} data-testid="history-clear">
          {t('history.filters.clear')}
        </button>
        <button type="button" className={formStyles.buttonSecondary} onClick={onOpenTeamTimeline} data-testid="history-open-team-timeline">
          {t('history.timeline.openTeam')}
        </button>
        <button type="button" className={formStyles.buttonSecondary} onClick={onOpenParticipantTimeline} data-testid="history-open-participant-timeline">
          {t('history.timeline.openParticipant')}
        </button>
      </div>
    </form>
  );
}
