import type { Entry, FlagReason, TeamMember, TeamPageEntry } from '@sinilill/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn, type RowSelectionState } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { PencilIcon, TrashIcon } from '../../../components/ui/icons';
import { formatDate, formatDateTime } from '../../../lib/format-date';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { distanceSearchText, formatDistance } from '../../../lib/format-number';
import { deleteEntries } from '../api/delete-entries';
import { ContributionDialog } from './contribution-dialog';
import contributionStyles from './contribution-dialog.module.css';
import { useTeamStore } from '../stores/team-store';
import { entryTypeLabel } from '../../../lib/entry-type';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './team-page.module.css';

const entryId = (entry: Entry) => String(entry.id);

/** What an entry's review shows: nothing unless under review or rejected. */
function reviewShown(entry: TeamPageEntry): 'flagged' | 'rejected' | null {
  const status = entry.review?.status;
  return status === 'flagged' || status === 'rejected' ? status : null;
}
const byTime = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

export interface EntriesSectionProps {
  /** With each entry's review, when it was ever flagged. */
  entries: readonly TeamPageEntry[];
  members: readonly TeamMember[];
  /** Entries may be added, edited and deleted (settings.entriesOpen). */
  entriesOpen: boolean;
  /** A command changed entries: refresh from its position. */
  onChanged: (position: number) => void;
}

/**
 * The entries table (spec §2): distance, type, member, performed at, created at; sortable,
 * searchable, 10 per page, newest first. While entries are open: a checkbox per row, an edit
 * pencil per row and "delete selected", which asks first in the same modal as add and edit (a
 * refusal shows in it) and announces the outcome in the page's one status line, as they do.
 */
export function EntriesSection({ entries, members, entriesOpen, onChanged }: EntriesSectionProps) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const openEditEntry = useTeamStore((s) => s.openEditEntry);
  const showNotice = useTeamStore((s) => s.showNotice);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [confirming, setConfirming] = useState(false);
  /** The entry whose "what this did" is open. */
  const [explained, setExplained] = useState<Entry | null>(null);
  const remove = useAction(deleteEntries);

  const columns = useMemo((): DataTableColumn<TeamPageEntry>[] => {
    const names = new Map(members.map((member) => [member.id, member.full_name]));
    const memberName = (entry: Entry) => names.get(entry.participant_id) ?? t('members.deleted');
    const typeLabel = (entry: Entry) => entryTypeLabel(entry.entry_type, (type) => t(`entryTypes.${type}`));
    const describe = (entry: Entry) => ({ member: memberName(entry), distance: formatDistance(entry.distance, lang), date: formatDate(entry.performed_at, lang) });
    const reasonText = (reason: FlagReason) => t(`review.reasons.${reason.rule}`, {
      limit: reason.limit === null ? '' : formatDistance(reason.limit, lang),
      value: formatDistance(reason.value, lang),
    });
    /** The review as words: "under review: <reasons>" or "rejected: <note, else reasons>". */
    const reviewText = (entry: TeamPageEntry) => {
      const shown = reviewShown(entry);
      if (!shown || !entry.review) return '';
      const reasons = entry.review.reasons.map(reasonText).join('; ');
      return shown === 'flagged'
        ? t('review.flagged', { reason: reasons })
        : t('review.rejected', { reason: entry.review.note || reasons });
    };
    const list: DataTableColumn<TeamPageEntry>[] = [
      {
        id: 'distance',
        header: t('entries.distance'),
        value: (entry) => entry.distance,
        cell: (entry) => formatDistance(entry.distance, lang),
        searchText: (entry) => distanceSearchText(entry.distance, lang),
        align: 'end',
        sortDescFirst: true,
      },
      {
        id: 'review',
        header: t('review.column'),
        value: reviewText,
        cell: (entry) => {
          const shown = reviewShown(entry);
          return shown ? <span data-review={shown} data-testid={`entry-review-${entry.id}`}>{reviewText(entry)}</span> : null;
        },
      },
      { id: 'type', header: t('entries.type'), value: typeLabel },
      { id: 'member', header: t('entries.member'), value: memberName },
      {
        id: 'performedAt',
        header: t('entries.performedAt'),
        value: (entry) => entry.performed_at,
        cell: (entry) => <span className={styles.nowrap}>{formatDate(entry.performed_at, lang)}</span>,
        searchText: (entry) => formatDate(entry.performed_at, lang),
        sortDescFirst: true,
      },
      {
        id: 'createdAt',
        header: t('entries.createdAt'),
        value: (entry) => byTime(entry.created_at),
        cell: (entry) => <span className={styles.nowrap}>{formatDateTime(entry.created_at, lang)}</span>,
        searchText: (entry) => formatDateTime(entry.created_at, lang),
        sortDescFirst: true,
      },
      {
        id: 'contribution',
        header: t('contributions.column'),
        headerHidden: true,
        cell: (entry) => (
          <button
            type="button"
            className={contributionStyles.explain}
            onClick={() => setExplained(entry)}
            aria-label={t('contributions.openLabel', describe(entry))}
            data-testid={`entry-contribution-${entry.id}`}
          >
            {t('contributions.open')}
          </button>
        ),
      },
    ];
    if (entriesOpen) {
      list.push({
        id: 'actions',
        header: t('entries.actions'),
        headerHidden: true,
        align: 'end',
        // A rejected entry can no longer be changed (only deleted): no pencil.
        cell: (entry) => entry.review?.status === 'rejected' ? null : (
          <button
            type="button"
            className={formStyles.iconButton}
            onClick={() => openEditEntry(entry)}
            aria-label={t('entries.edit', describe(entry))}
            title={t('entries.edit', describe(entry))}
            data-testid={`entry-edit-${entry.id}`}
          >
            <PencilIcon size={18} />
          </button>
        ),
      });
    }
    return list;
  }, [t, lang, members, entriesOpen, openEditEntry]);

  const rowLabel = useMemo(() => {
    const names = new Map(members.map((member) => [member.id, member.full_name]));
    return (entry: TeamPageEntry) =>
      t('entries.select', {
        member: names.get(entry.participant_id) ?? t('members.deleted'),
        distance: formatDistance(entry.distance, lang),
        date: formatDate(entry.performed_at, lang),
      });
  }, [t, lang, members]);

  // Selected ids of entries that still exist (a team mate may have deleted one meanwhile).
  const selectedIds = useMemo(() => {
    const existing = new Set(entries.map(entryId));
    return Object.keys(selection).filter((id) => selection[id] && existing.has(id));
  }, [entries, selection]);

  function askToDelete() {
    if (selectedIds.length === 0 || remove.pending) return;
    remove.reset();
    setConfirming(true);
  }

  async function deleteSelected() {
    const outcome = await remove.run(selectedIds.map(Number));
    if (!outcome.ok) return; // the dialog stays open with the refusal
    // Closed first, while the button still has its selection: the focus goes back to it.
    setConfirming(false);
    setSelection({});
    showNotice({ variant: 'success', text: t('entries.deleted', { count: outcome.result.count }) });
    onChanged(outcome.result.position);
  }

  return (
    <section className={styles.section} aria-labelledby="entries-heading">
      <h2 id="entries-heading" className={styles.sectionHeading}>
        {t('entries.heading')}
      </h2>
      <DataTable
        data={entries}
        columns={columns}
        getRowId={entryId}
        testId="entries-table"
        caption={t('entries.caption')}
        searchLabel={t('entries.search')}
        initialSort={{ id: 'createdAt', desc: true }}
        selection={entriesOpen ? { selected: selection, onChange: setSelection, rowLabel } : undefined}
        toolbar={
          entriesOpen ? (
            // aria-disabled rather than disabled: the button keeps the focus the dialog hands back
            // to it after the deletion has emptied the selection.
            <button
              type="button"
              className={`${formStyles.buttonSecondary} ${formStyles.dangerButton}`}
              onClick={askToDelete}
              aria-disabled={selectedIds.length === 0}
              data-testid="entries-delete"
            >
              <TrashIcon size={18} />
              {t('entries.deleteSelected', { count: selectedIds.length })}
            </button>
          ) : undefined
        }
      />
      <ContributionDialog entry={explained} onClose={() => setExplained(null)} />
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void deleteSelected()}
        title={t('entries.deleteTitle')}
        confirmLabel={t('entries.deleteConfirmButton', { count: selectedIds.length })}
        pendingLabel={t('entries.deleting')}
        cancelLabel={t('entry.cancel')}
        pending={remove.pending}
        errorCode={remove.state.status === 'error' ? remove.state.code : null}
        danger
        canConfirm={selectedIds.length > 0}
        testId="entries-confirm-delete"
      >
        <p>{t('entries.deletePermanent')}</p>
        <p>{t('entries.deleteConfirm', { count: selectedIds.length })}</p>
      </ConfirmDialog>
    </section>
  );
}
