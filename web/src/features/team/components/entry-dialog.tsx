import type { Entry, TeamMember } from '@sinilill/contracts';
import { ACTIVITY_TYPES, localDate, type ActivityType, type Edition } from '@sinilill/domain';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../components/ui/dialog/modal-dialog';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { DecimalInput } from '../../../components/ui/form/decimal-input';
import { FieldFrame } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import { formatDate } from '../../../lib/format-date';
import { problemFields } from '../../../lib/form-validation';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { editEntry } from '../api/edit-entry';
import { addEntryOrQueue, type AddOutcome } from '../offline/entry-queue-store';
import { useTeamStore } from '../stores/team-store';
import {
  checkEntryForm,
  ENTRY_FORM_FIELDS,
  entryBody,
  initialEntryForm,
  type EntryFormField,
  type EntryFormMode,
  type EntryFormValues,
} from '../utils/entry-form';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './team-page.module.css';

export interface EntryDialogProps {
  members: readonly TeamMember[];
  /** The logged-in user's participant id: a new entry's member when they are in the team. */
  participantId: number | null;
  /** The team's edition: its days and moderation limits bound an entry. */
  edition: Edition;
  /** An entry was added or changed: refresh from `position`. */
  onSaved: (position: number) => void;
}

/**
 * The add / edit entry modal (spec §2 "Add-entry modal", §5): distance, type (a preset, or Other
 * with free text), performed-at day within April, and the member. Opened from the store by the
 * add button or a row's pencil; closes after a successful save.
 */
export function EntryDialog({ members, participantId, edition, onSaved }: EntryDialogProps) {
  const { t } = useTranslation('team');
  const dialog = useTeamStore((s) => s.dialog);
  const closeDialog = useTeamStore((s) => s.closeDialog);
  const mode: EntryFormMode = dialog?.mode ?? 'add';
  return (
    <ModalDialog
      open={dialog !== null}
      onClose={closeDialog}
      title={mode === 'add' ? t('entry.addTitle') : t('entry.editTitle')}
      testId="entry-dialog"
    >
      {dialog && (
        <EntryForm
          key={dialog.mode === 'edit' ? `edit-${dialog.entry.id}` : 'add'}
          mode={dialog.mode}
          entry={dialog.mode === 'edit' ? dialog.entry : null}
          members={members}
          participantId={participantId}
          edition={edition}
          onSaved={onSaved}
          onCancel={closeDialog}
        />
      )}
    </ModalDialog>
  );
}

interface EntryFormProps {
  mode: EntryFormMode;
  entry: Entry | null;
  members: readonly TeamMember[];
  participantId: number | null;
  edition: Edition;
  onSaved: (position: number) => void;
  onCancel: () => void;
}

function save({ mode, entry, values }: { mode: EntryFormMode; entry: Entry | null; values: EntryFormValues }) {
  const body = entryBody(values);
  // A new entry is queued while offline; an edit needs the connection.
  return mode === 'edit' && entry ? editEntry(entry.id, body).then((answer): AddOutcome => ({ queued: false, answer })) : addEntryOrQueue(body);
}

function EntryForm({ mode, entry, members, participantId, edition, onSaved, onCancel }: EntryFormProps) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const closeDialog = useTeamStore((s) => s.closeDialog);
  const showNotice = useTeamStore((s) => s.showNotice);
  const form = useRef<HTMLFormElement>(null);
  const memberIds = useMemo(() => members.map((member) => member.id), [members]);
  const [values, setValues] = useState<EntryFormValues>(() => {
    const defaultMember = participantId !== null && memberIds.includes(participantId) ? participantId : (memberIds[0] ?? null);
    return initialEntryForm(entry, { participantId: defaultMember, today: localDate(new Date().toISOString(), edition.timeZone), lang }, edition);
  });
  const [submitted, setSubmitted] = useState(false);
  const action = useAction(save);

  const problems = submitted ? checkEntryForm(values, mode, edition, memberIds) : {};
  const set = (field: EntryFormField) => (value: string) => setValues((previous) => ({ ...previous, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = checkEntryForm(values, mode, edition, memberIds);
    const fields = problemFields(ENTRY_FORM_FIELDS, found);
    if (fields.length > 0) return focusField(form.current, fields[0]);
    const outcome = await action.run({ mode, entry, values });
    if (!outcome.ok) return;
    closeDialog();
    if (outcome.result.queued) return showNotice({ variant: 'success', text: t('offline.queued') });
    showNotice({ variant: 'success', text: mode === 'add' ? t('entries.added') : t('entries.saved') });
    onSaved(outcome.result.answer.position);
  }

  const typeOptions = ACTIVITY_TYPES.map((type: ActivityType) => ({ value: type, label: t(`entryTypes.${type}`) }));
  return (
    <form ref={form} className={formStyles.form} onSubmit={(event) => void submit(event)} noValidate>
      <FieldFrame id="entry-distance" label={t('entry.distance')} problem={problems.distance} hint={t('entry.distanceHint')}>
        {(aria) => (
          <DecimalInput
            id="entry-distance"
            name="distance"
            value={values.distance}
            onChange={set('distance')}
            required
            data-autofocus
            {...aria}
            data-testid="entry-distance"
          />
        )}
      </FieldFrame>
      <FieldFrame id="entry-type" label={t('entry.type')} problem={problems.type}>
        {(aria) => (
          <select
            id="entry-type"
            name="type"
            className={formStyles.select}
            value={values.type}
            onChange={(event) => set('type')(event.target.value)}
            required
            {...aria}
            data-testid="entry-type"
          >
            <option value="">{t('entry.chooseType')}</option>
            {typeOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      {values.type === 'OTHER' && (
        <FieldFrame id="entry-type-other" label={t('entry.other')} problem={problems.otherText}>
          {(aria) => (
            <input
              id="entry-type-other"
              name="otherText"
              type="text"
              className={formStyles.input}
              value={values.otherText}
              onChange={(event) => set('otherText')(event.target.value)}
              required
              {...aria}
              data-testid="entry-type-other"
            />
          )}
        </FieldFrame>
      )}
      <FieldFrame
        id="entry-performed-at"
        label={t('entry.performedAt')}
        problem={problems.performedAt}
        hint={t('entry.performedAtHint', { from: formatDate(edition.startDate, lang), to: formatDate(edition.endDate, lang) })}
      >
        {(aria) => (
          <input
            id="entry-performed-at"
            name="performedAt"
            type="date"
            min={edition.startDate}
            max={edition.endDate}
            className={formStyles.input}
            value={values.performedAt}
            onChange={(event) => set('performedAt')(event.target.value)}
            required
            {...aria}
            data-testid="entry-performed-at"
          />
        )}
      </FieldFrame>
      <FieldFrame id="entry-member" label={t('entry.member')} problem={problems.participantId}>
        {(aria) => (
          <select
            id="entry-member"
            name="participantId"
            className={formStyles.select}
            value={values.participantId}
            onChange={(event) => set('participantId')(event.target.value)}
            required
            {...aria}
            data-testid="entry-member"
          >
            {values.participantId === '' && <option value="">{t('entry.chooseMember')}</option>}
            {members.map((member) => (
              <option key={member.id} value={String(member.id)}>
                {member.full_name ?? t('members.deleted')}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
      <div className={`${formStyles.actions} ${styles.dialogActions}`}>
        <button type="button" className={formStyles.buttonSecondary} onClick={onCancel} data-testid="entry-cancel">
          {t('entry.cancel')}
        </button>
        <button type="submit" className={formStyles.button} disabled={action.pending} data-testid="entry-submit">
          {mode === 'add' ? t('entry.submitAdd') : t('entry.submitEdit')}
        </button>
      </div>
    </form>
  );
}
