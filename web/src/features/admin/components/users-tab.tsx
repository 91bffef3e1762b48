import { useCallback, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SORT, USER_SORTS } from '@sinilill/contracts';
import type { DataTableColumn } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { TextField } from '../../../components/ui/form/field';
import { focusField } from '../../../components/ui/form/problem-text';
import { errorCodeOf } from '../../../lib/api-client';
import { limits } from '../../../lib/form-validation';
import { useSessionStore } from '../../../lib/session-store';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { renameParticipant, setApproval, setPaid } from '../api/admin-commands';
import { getUserPage, type UserSort } from '../api/get-admin-data';
import { formatAuditTime } from '../audit/utils/tallinn-time';
import { checkFullName } from '../utils/edit-forms';
import { userRows, type UserRow } from '../utils/rows';
import { AdminTable } from './console/admin-table';
import { EditButton, OrDash, PersonName, ToggleButton } from './console/cells';
import { ConsoleTabFrame, useConsoleTab, type ConsoleTable } from './console/console-tab';
import { CsvDownload } from './console/csv-download';
import { DeleteSelected } from './console/delete-selected';
import { EditDialog, EditForm } from './console/edit-dialog';
import { PaymentsDialog, type PaymentsTarget } from './payments-dialog';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './console/console.module.css';

const userId = (row: UserRow) => row.id;

/** The users tab's pages: GET /api/admin/users. */
const USERS: ConsoleTable<UserRow, UserSort> = {
  name: 'users',
  sorts: USER_SORTS,
  defaultSort: DEFAULT_SORT.users,
  load: (query, options) => getUserPage(query, options).then((answer) => ({ rows: userRows(answer.rows), total: answer.total })),
  rowId: userId,
};

type ToggleField = 'isPaid' | 'isApproved';

/** A toggle clicked and waiting for the administrator's yes in the confirmation. */
interface PendingToggle {
  row: UserRow;
  field: ToggleField;
}

/** The confirmation's texts for a toggle, by what it is about to do. */
const TOGGLE_TEXTS = {
  approve: { title: 'users.confirm.approveTitle', body: 'users.confirm.approveBody', button: 'users.confirm.approveButton' },
  revoke: { title: 'users.confirm.revokeTitle', body: 'users.confirm.revokeBody', button: 'users.confirm.revokeButton' },
  paid: { title: 'users.confirm.paidTitle', body: 'users.confirm.paidBody', button: 'users.confirm.paidButton' },
  unpaid: { title: 'users.confirm.unpaidTitle', body: 'users.confirm.unpaidBody', button: 'users.confirm.unpaidButton' },
} as const;

function toggleTexts(field: ToggleField, next: boolean): (typeof TOGGLE_TEXTS)[keyof typeof TOGGLE_TEXTS] {
  if (field === 'isApproved') return next ? TOGGLE_TEXTS.approve : TOGGLE_TEXTS.revoke;
  return next ? TOGGLE_TEXTS.paid : TOGGLE_TEXTS.unpaid;
}

/**
 * The users tab (spec §2 "Admin" → Users; §3 "User (admin view)"): every account with full name,
 * e-mail, team, paid and approved toggles, created at (the participant's registration, DD-MMM-YYYY
 * HH:mm:ss in Europe/Tallinn) and an edit pencil; searched by e-mail, name and team; 50 per page,
 * newest first — paged, sorted and searched on the server, with a CSV export of the sort and
 * search shown. A toggle shows the new state only after the server accepted it (spec §4): while
 * the call is under way it is disabled, a refusal leaves it and shows a red alert. The edit modal
 * corrects the full name (≤ 32 characters). Selected accounts are deleted for good after a
 * confirmation (not the administrator's own, which the server refuses). A participant's payments
 * button opens their orders, where a refund is recorded (payments-dialog.tsx).
 */
export function UsersTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const ownId = useSessionStore((s) => s.identity.userId);
  const tab = useConsoleTab(USERS);
  const { patch } = tab.list;
  const { changed } = tab;
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());
  const { clear } = tab.notice;
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [payments, setPayments] = useState<PaymentsTarget | null>(null);
  const [confirming, setConfirming] = useState<PendingToggle | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const edit = useCallback(
    (row: UserRow) => {
      clear();
      setEditing(row);
    },
    [clear],
  );

  /** Sends the toggle's new state; answers null on success, else the refusal's catalogue code. */
  const toggle = useCallback(
    async (row: UserRow, field: ToggleField): Promise<string | null> => {
      const key = `${row.id}:${field}`;
      const next = !row[field];
      const { participantId } = row;
      const send = field === 'isApproved' ? () => setApproval(row.id, next) : participantId !== null ? () => setPaid(participantId, next) : null;
      if (!send) return null;
      setPending((previous) => new Set(previous).add(key));
      try {
        const answer = await send();
        patch((rows) => rows.map((user) => (user.id === row.id ? { ...user, [field]: next } : user)));
        changed(t('success.user'), answer.position);
        return null;
      } catch (error) {
        return errorCodeOf(error);
      } finally {
        setPending((previous) => {
          const rest = new Set(previous);
          rest.delete(key);
          return rest;
        });
      }
    },
    [patch, changed, t],
  );

  const confirmToggle = async () => {
    if (!confirming) return;
    const code = await toggle(confirming.row, confirming.field);
    if (code === null) setConfirming(null);
    else setConfirmError(code);
  };

  const columns = useMemo((): DataTableColumn<UserRow>[] => {
    // An account without a participant (an administrator) has no name; an erased person's is null.
    const name = (row: UserRow) => (row.participantId === null ? '' : (row.fullName ?? t('console.deleted')));
    // The toggles and the pencil are named by the person: their e-mail, else their name. Column
    // ids are the server's sort keys.
    const who = (row: UserRow) => row.email ?? (name(row) || t('console.deleted'));
    const toggleCell = (row: UserRow, field: ToggleField, label: string, testId: string) => (
      <ToggleButton
        pressed={row[field] === true}
        pending={pending.has(`${row.id}:${field}`)}
        label={label}
        onToggle={() => {
          clear();
          setConfirmError(null);
          setConfirming({ row, field });
        }}
        testId={testId}
      />
    );
    return [
      {
        id: 'full_name',
        header: t('users.fullName'),
        value: (row) => row.fullName,
        cell: (row) => (row.participantId === null ? <OrDash value={null} /> : <Clipped text={row.fullName}><PersonName name={row.fullName} /></Clipped>),
        rowHeader: true,
      },
      { id: 'email', header: t('users.email'), value: (row) => row.email, cell: (row) => <Clipped text={row.email} narrow><OrDash value={row.email} /></Clipped> },
      { id: 'team_name', header: t('users.team'), value: (row) => row.teamName, cell: (row) => <Clipped text={row.teamName} narrow><OrDash value={row.teamName} /></Clipped> },
      {
        id: 'is_paid',
        header: t('users.paid'),
        value: (row) => row.isPaid,
        cell: (row) => (row.isPaid === null ? <OrDash value={null} /> : toggleCell(row, 'isPaid', t('users.paidLabel', { name: who(row) }), 'admin-toggle-paid')),
        align: 'center',
      },
      {
        id: 'is_approved',
        header: t('users.approved'),
        value: (row) => row.isApproved,
        cell: (row) => toggleCell(row, 'isApproved', t('users.approvedLabel', { name: who(row) }), 'admin-toggle-approved'),
        align: 'center',
      },
      {
        id: 'participant_created_at',
        header: t('users.createdAt'),
        value: (row) => row.createdMs,
        cell: (row) => <DateOverTime text={formatAuditTime(row.createdAt, lang)} />,
        sortDescFirst: true,
      },
      {
        id: 'actions',
        header: t('users.actions'),
        headerHidden: true,
        align: 'end',
        cell: (row) => {
          const { participantId } = row;
          if (participantId === null) return null;
          return (
            <span className={styles.nowrap}>
              <button
                type="button"
                className={formStyles.buttonSecondary}
                onClick={() => {
                  clear();
                  setPayments({ participantId, name: who(row) });
                }}
                aria-label={t('payments.open', { name: who(row) })}
                data-testid="admin-payments"
              >
                {t('payments.button')}
              </button>{' '}
              <EditButton label={t('users.edit', { name: who(row) })} onClick={() => edit(row)} />
            </span>
          );
        },
      },
    ];
  }, [t, lang, pending, edit, clear]);

  const rowLabel = useCallback((row: UserRow) => t('users.select', { name: row.email ?? row.fullName ?? t('console.deleted') }), [t]);
  const ids = tab.selectedRows.filter((row) => row.id !== ownId).map(userId);
  const keptOwn = tab.selectedRows.some((row) => row.id === ownId);

  return (
    <ConsoleTabFrame tab={tab}>
      <AdminTable
        testId="admin-users-table"
        data={tab.rows}
        server={tab.list.server}
        columns={columns}
        getRowId={userId}
        caption={t('users.caption')}
        searchLabel={t('users.search')}
        selection={{ ...tab.selection, rowLabel }}
        toolbar={
          <>
            <DeleteSelected
              onOpen={clear}
              onClearSelection={tab.clearSelection}
              entity="user"
              ids={ids}
              selectedCount={tab.selectedRows.length}
              keptNote={keptOwn ? t('users.keptOwn') : null}
              onDeleted={(count, position) => tab.deleted(t('success.users', { count }), position)}
            />
            <CsvDownload tab={tab} />
          </>
        }
      />
      <EditDialog open={editing !== null} title={t('users.editTitle')} onClose={() => setEditing(null)}>
        {editing && (
          <UserForm
            key={editing.id}
            row={editing}
            onCancel={() => setEditing(null)}
            onSaved={(fullName, position) => {
              setEditing(null);
              patch((rows) => rows.map((user) => (user.id === editing.id ? { ...user, fullName } : user)));
              changed(t('success.user'), position);
            }}
          />
        )}
      </EditDialog>
      <ToggleConfirmation
        pendingToggle={confirming}
        pending={confirming !== null && pending.has(`${confirming.row.id}:${confirming.field}`)}
        errorCode={confirmError}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirmToggle()}
      />
      <PaymentsDialog target={payments} onClose={() => setPayments(null)} onRefunded={(position) => changed(t('success.refund'), position)} />
    </ConsoleTabFrame>
  );
}

/** A long name, e-mail or team on one line, cut with an ellipsis; the whole text on hover. */
function Clipped({ text, narrow = false, children }: { text: string | null; narrow?: boolean; children: ReactNode }) {
  return (
    <span className={narrow ? styles.clipNarrow : styles.clip} title={text ?? undefined}>
      {children}
    </span>
  );
}

/** "13-Mar-2025 23:41:00" as the date above the time, each on one line (a narrower column). */
function DateOverTime({ text }: { text: string }) {
  const at = text.lastIndexOf(' ');
  if (at < 0) return <span className={styles.nowrap}>{text}</span>;
  return (
    <span className={styles.dateTime}>
      <span>{text.slice(0, at)}</span> <span>{text.slice(at + 1)}</span>
    </span>
  );
}

interface ToggleConfirmationProps {
  pendingToggle: PendingToggle | null;
  pending: boolean;
  errorCode: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * The question before a paid or approved toggle changes anything: names the person and what
 * follows (revoking approval logs them out), in the site's own modal. Nothing is sent until yes.
 */
function ToggleConfirmation({ pendingToggle, pending, errorCode, onCancel, onConfirm }: ToggleConfirmationProps) {
  const { t } = useTranslation('admin');
  const row = pendingToggle?.row;
  const next = pendingToggle ? !pendingToggle.row[pendingToggle.field] : false;
  const texts = toggleTexts(pendingToggle?.field ?? 'isApproved', next);
  const name = row ? (row.fullName ?? row.email ?? t('console.deleted')) : '';
  const revoking = pendingToggle?.field === 'isApproved' && !next;
  return (
    <ConfirmDialog
      open={pendingToggle !== null}
      onCancel={onCancel}
      onConfirm={onConfirm}
      title={t(texts.title, { name })}
      confirmLabel={t(texts.button)}
      cancelLabel={t('users.confirm.cancel')}
      pending={pending}
      pendingLabel={t('users.confirm.saving')}
      errorCode={errorCode}
      danger={revoking}
      testId="admin-toggle-confirm"
    >
      <p>{t(texts.body, { name })}</p>
    </ConfirmDialog>
  );
}

interface UserFormProps {
  row: UserRow;
  onCancel: () => void;
  /** The server accepted the name (trimmed) at `position`. */
  onSaved: (fullName: string, position: number) => void;
}

/** The users tab's edit form: the participant's full name (spec §5: at most 32 characters). */
function UserForm({ row, onCancel, onSaved }: UserFormProps) {
  const { t } = useTranslation('admin');
  const form = useRef<HTMLFormElement>(null);
  const [fullName, setFullName] = useState(row.fullName ?? '');
  const [submitted, setSubmitted] = useState(false);
  const action = useAction(renameParticipant);
  const problems = submitted ? checkFullName(fullName) : {};

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (checkFullName(fullName).full_name) return focusField(form.current, 'full_name');
    if (row.participantId === null) return;
    const name = fullName.trim();
    const outcome = await action.run(row.participantId, name);
    if (outcome.ok) onSaved(name, outcome.result.position);
  }

  return (
    <EditForm
      formRef={form}
      onSubmit={(event) => void submit(event)}
      onCancel={onCancel}
      pending={action.pending}
      errorCode={action.state.status === 'error' ? action.state.code : null}
    >
      <TextField
        name="full_name"
        label={t('users.fullNameLabel')}
        value={fullName}
        onChange={setFullName}
        problem={problems.full_name}
        autoComplete="off"
        hint={t('users.fullNameHint', { max: limits.fullNameMax })}
        inputProps={{ 'data-autofocus': '' }}
      />
    </EditForm>
  );
}
