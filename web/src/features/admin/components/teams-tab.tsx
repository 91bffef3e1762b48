import { useCallback, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SORT, TEAM_SORTS } from '@sinilill/contracts';
import type { DataTableColumn } from '../../../components/ui/data-table';
import { FieldFrame, TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import { TrashIcon } from '../../../components/ui/icons';
import { TeamIcon } from '../../../components/ui/team-icon';
import { formatDateTime } from '../../../lib/format-date';
import { limits, problemFields } from '../../../lib/form-validation';
import { useSessionStore } from '../../../lib/session-store';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { checkIconFile, ICON_ACCEPT, readAsDataUrl } from '../../../lib/icon-file';
import { updateTeam } from '../api/admin-commands';
import { getTeamPage, type TeamSort } from '../api/get-admin-data';
import { checkTeamDraft, TEAM_DRAFT_FIELDS, teamBody, teamDraft, type TeamDraft } from '../utils/edit-forms';
import { teamRows, type TeamRow } from '../utils/rows';
import { AdminTable } from './console/admin-table';
import { EditButton, OrDash } from './console/cells';
import { ConsoleTabFrame, useConsoleTab, type ConsoleTable } from './console/console-tab';
import { CsvDownload } from './console/csv-download';
import { DeleteSelected } from './console/delete-selected';
import { EditDialog, EditForm } from './console/edit-dialog';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './console/console.module.css';

const teamId = (row: TeamRow) => String(row.id);

/** The teams tab's pages: GET /api/admin/teams. */
const TEAMS: ConsoleTable<TeamRow, TeamSort> = {
  name: 'teams',
  sorts: TEAM_SORTS,
  defaultSort: DEFAULT_SORT.teams,
  load: (query, options) => getTeamPage(query, options).then((answer) => ({ rows: teamRows(answer.rows), total: answer.total })),
  rowId: teamId,
};

/**
 * The teams tab (spec §2 "Admin" → Teams; §3 "Team"): picture, name, member count, distance
 * (rounded km), join code, created at (DD-MMM-YYYY HH:mm, Europe/Tallinn) and an edit pencil; a
 * row opens to the team's description (or a default text); searched by name and join code; 50 per
 * page, by name ascending — paged, sorted and searched on the server, with a CSV export of the
 * sort and search shown. The edit modal changes the picture (a new JPG/PNG up to 5 MB, sent as a
 * data URL, or deleted), the name (≤ 50) and the description (≤ 256). Selected teams are deleted
 * for good, with their members, after a confirmation (not the administrator's own team).
 */
export function TeamsTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const format = useNumberFormat();
  const ownTeam = useSessionStore((s) => s.identity.teamId);
  const tab = useConsoleTab(TEAMS);
  const { patch } = tab.list;
  const { clear } = tab.notice;
  const [editing, setEditing] = useState<TeamRow | null>(null);
  const edit = useCallback(
    (row: TeamRow) => {
      clear();
      setEditing(row);
    },
    [clear],
  );

  const columns = useMemo(
    (): DataTableColumn<TeamRow>[] => [
      {
        id: 'icon',
        header: t('teams.icon'),
        headerHidden: true,
        // Decorative: the team's name is the next cell.
        cell: (row) => <TeamIcon icon={row.icon} size={36} />,
        align: 'center',
      },
      // Column ids are the server's sort keys.
      { id: 'team_name', header: t('teams.name'), value: (row) => row.name, rowHeader: true },
      {
        id: 'participant_count',
        header: t('teams.participants'),
        value: (row) => row.participantCount,
        cell: (row) => format(row.participantCount),
        align: 'end',
        sortDescFirst: true,
      },
      {
        id: 'distance',
        header: t('teams.distance'),
        value: (row) => row.distance,
        cell: (row) => <span className={styles.nowrap}>{format(row.distance)}</span>,
        align: 'end',
        sortDescFirst: true,
      },
      { id: 'join_code', header: t('teams.joinCode'), value: (row) => row.joinCode, cell: (row) => <OrDash value={row.joinCode} /> },
      {
        id: 'created_at',
        header: t('teams.createdAt'),
        value: (row) => row.createdMs,
        cell: (row) => <span className={styles.nowrap}>{formatDateTime(row.createdAt, lang)}</span>,
        sortDescFirst: true,
      },
      {
        id: 'actions',
        header: t('teams.actions'),
        headerHidden: true,
        align: 'end',
        cell: (row) => <EditButton label={t('teams.edit', { name: row.name })} onClick={() => edit(row)} />,
      },
    ],
    [t, lang, format, edit],
  );

  const rowLabel = useCallback((row: TeamRow) => t('teams.select', { name: row.name }), [t]);
  const ids = tab.selectedRows.filter((row) => row.id !== ownTeam).map((row) => row.id);
  const keptOwn = tab.selectedRows.some((row) => row.id === ownTeam);

  return (
    <ConsoleTabFrame tab={tab}>
      <AdminTable
        testId="admin-teams-table"
        data={tab.rows}
        server={tab.list.server}
        columns={columns}
        getRowId={teamId}
        caption={t('teams.caption')}
        searchLabel={t('teams.search')}
        selection={{ ...tab.selection, rowLabel }}
        expand={(row) =>
          row.description.trim() === '' ? (
            <p className={`${styles.detail} ${styles.muted}`}>{t('teams.noDescription')}</p>
          ) : (
            <p className={styles.detail}>{row.description}</p>
          )
        }
        expandLabel={(row) => t('teams.about', { name: row.name })}
        toolbar={
          <>
            <DeleteSelected
              onOpen={clear}
              onClearSelection={tab.clearSelection}
              entity="team"
              ids={ids}
              selectedCount={tab.selectedRows.length}
              keptNote={keptOwn ? t('teams.keptOwn') : null}
              onDeleted={(count, position) => tab.deleted(t('success.teams', { count }), position)}
            />
            <CsvDownload tab={tab} />
          </>
        }
      />
      <EditDialog open={editing !== null} title={t('teams.editTitle')} onClose={() => setEditing(null)}>
        {editing && (
          <TeamForm
            key={editing.id}
            team={editing}
            onCancel={() => setEditing(null)}
            onSaved={(saved, position) => {
              setEditing(null);
              patch((rows) =>
                rows.map((row) =>
                  row.id === saved.id ? { ...row, name: saved.team_name, description: saved.description, icon: saved.icon || null } : row,
                ),
              );
              tab.changed(t('success.team'), position);
            }}
          />
        )}
      </EditDialog>
    </ConsoleTabFrame>
  );
}

interface TeamFormProps {
  team: TeamRow;
  onCancel: () => void;
  /** The server accepted the change: the team as it is now, at `position`. */
  onSaved: (team: { id: number; team_name: string; description: string; icon: string | null }, position: number) => void;
}

/**
 * The teams tab's edit form (spec §2: "edit modal with icon preview, delete-image button, name,
 * description"; §5 limits). The picture changes only in the preview until Save.
 */
function TeamForm({ team, onCancel, onSaved }: TeamFormProps) {
  const { t } = useTranslation('admin');
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const fileHintId = useId();
  const descriptionId = useId();
  const countId = useId();
  const [draft, setDraft] = useState<TeamDraft>(() => teamDraft(team));
  const [submitted, setSubmitted] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const action = useAction(updateTeam);
  const problems = submitted ? checkTeamDraft(draft) : {};
  const set = (field: keyof TeamDraft) => (value: string | null) => setDraft((previous) => ({ ...previous, [field]: value }));

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkIconFile(file);
    setFileProblem(problem);
    if (problem) {
      // Cleared, so that the refused file is not left looking chosen.
      event.target.value = '';
      return;
    }
    try {
      set('icon')(await readAsDataUrl(file));
    } catch {
      setFileProblem('GENERIC_ERROR');
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const fields = problemFields(TEAM_DRAFT_FIELDS, checkTeamDraft(draft));
    if (fields.length > 0) return focusField(form.current, fields[0]);
    const outcome = await action.run(teamBody(team, draft));
    if (outcome.ok) onSaved(outcome.result.team, outcome.result.position);
  }

  const errorCode = fileProblem ?? (action.state.status === 'error' ? action.state.code : null);
  return (
    <EditForm formRef={form} onSubmit={(event) => void submit(event)} onCancel={onCancel} pending={action.pending} errorCode={errorCode}>
      <div className={styles.iconRow}>
        <TeamIcon icon={draft.icon} size={96} alt={t('teams.iconPreview', { name: team.name })} testId="admin-team-icon-preview" />
        <div className={styles.iconControls}>
          <label htmlFor={fileId} className={formStyles.label}>
            {t('teams.iconFile')}
          </label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept={ICON_ACCEPT}
            className={styles.fileInput}
            onChange={(event) => void chooseFile(event)}
            aria-describedby={fileHintId}
            data-testid="admin-team-icon-file"
          />
          <p id={fileHintId} className={formStyles.hint}>
            {t('teams.iconHint')}
          </p>
          <div>
            <button
              type="button"
              className={`${formStyles.buttonSecondary} ${formStyles.dangerButton}`}
              onClick={() => {
                set('icon')(null);
                setFileProblem(null);
                if (fileInput.current) fileInput.current.value = '';
              }}
              disabled={draft.icon === null}
              data-testid="admin-delete-image"
            >
              <TrashIcon size={18} />
              {t('teams.deleteImage')}
            </button>
          </div>
        </div>
      </div>
      <TextField
        name="team_name"
        label={t('teams.nameLabel')}
        value={draft.team_name}
        onChange={set('team_name')}
        problem={problems.team_name}
        autoComplete="off"
        inputProps={{ 'data-autofocus': '' }}
      />
      <FieldFrame id={descriptionId} label={t('teams.descriptionLabel')} problem={problems.description}>
        {(aria) => (
          <>
            <textarea
              id={descriptionId}
              name="description"
              className={`${formStyles.input} ${styles.textarea}`}
              value={draft.description}
              rows={4}
              onChange={(event) => set('description')(event.target.value)}
              {...aria}
              aria-describedby={[aria['aria-describedby'], countId].filter(Boolean).join(' ')}
            />
            <p id={countId} className={styles.count}>
              {t('console.textCount', { count: [...draft.description.trim()].length, max: limits.descriptionMax })}
            </p>
          </>
        )}
      </FieldFrame>
    </EditForm>
  );
}
