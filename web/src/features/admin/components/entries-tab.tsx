import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SORT, ENTRY_SORTS } from '@sinilill/contracts';
import type { DataTableColumn } from '../../../components/ui/data-table';
import { formatDate, formatDateTime } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { entryTypeLabel } from '../../../lib/entry-type';
import { getEntryPage, type EntrySort } from '../api/get-admin-data';
import { entryRows, type EntryRow } from '../utils/rows';
import { AdminTable } from './console/admin-table';
import { OrDash, PersonName } from './console/cells';
import { ConsoleTabFrame, useConsoleTab, type ConsoleTable } from './console/console-tab';
import { CsvDownload } from './console/csv-download';
import { DeleteSelected } from './console/delete-selected';
import styles from './console/console.module.css';

const entryId = (row: EntryRow) => String(row.id);

/** The entries tab's pages: GET /api/admin/entries. */
const ENTRIES: ConsoleTable<EntryRow, EntrySort> = {
  name: 'entries',
  sorts: ENTRY_SORTS,
  defaultSort: DEFAULT_SORT.entries,
  load: (query, options) => getEntryPage(query, options).then((answer) => ({ rows: entryRows(answer.rows), total: answer.total })),
  rowId: entryId,
};

/**
 * The entries tab (spec §2 "Admin" → Entries; §3 "Entry"): the person's full name, team, distance
 * (km, two decimals), type (a preset translated as on the team page, else the typed text), done
 * on (DD-MMM-YYYY) and created at (DD-MMM-YYYY HH:mm, Europe/Tallinn); searched by name and team;
 * 50 per page, newest first — paged, sorted and searched on the server (a million entries),
 * with a CSV export of the sort and search shown. Selected entries are deleted for good after a confirmation.
 */
export function EntriesTab() {
  const { t } = useTranslation('admin');
  const { t: tTeam } = useTranslation('team');
  const lang = useLang();
  const tab = useConsoleTab(ENTRIES);

  const columns = useMemo((): DataTableColumn<EntryRow>[] => {
    const typeLabel = (row: EntryRow) => entryTypeLabel(row.entryType, (type) => tTeam(`entryTypes.${type}`));
    // Column ids are the server's sort keys; the server searches the name and the team (spec §2).
    return [
      {
        id: 'full_name',
        header: t('entries.fullName'),
        value: (row) => row.fullName,
        cell: (row) => <PersonName name={row.fullName} />,
        rowHeader: true,
      },
      { id: 'team_name', header: t('entries.team'), value: (row) => row.teamName, cell: (row) => <OrDash value={row.teamName} /> },
      {
        id: 'distance',
        header: t('entries.distance'),
        value: (row) => row.distance,
        cell: (row) => formatDistance(row.distance, lang),
        align: 'end',
        sortDescFirst: true,
      },
      { id: 'entry_type', header: t('entries.type'), value: typeLabel },
      {
        id: 'performed_at',
        header: t('entries.performedAt'),
        value: (row) => row.performedAt,
        cell: (row) => <span className={styles.nowrap}>{formatDate(row.performedAt, lang)}</span>,
        sortDescFirst: true,
      },
      {
        id: 'created_at',
        header: t('entries.createdAt'),
        value: (row) => row.createdMs,
        cell: (row) => <span className={styles.nowrap}>{formatDateTime(row.createdAt, lang)}</span>,
        sortDescFirst: true,
      },
    ];
  }, [t, tTeam, lang]);

  const rowLabel = useCallback(
    (row: EntryRow) =>
      t('entries.select', { name: row.fullName ?? t('console.deleted'), distance: formatDistance(row.distance, lang), date: formatDate(row.performedAt, lang) }),
    [t, lang],
  );

  return (
    <ConsoleTabFrame tab={tab}>
      <AdminTable
        testId="admin-entries-table"
        data={tab.rows}
        server={tab.list.server}
        columns={columns}
        getRowId={entryId}
        caption={t('entries.caption')}
        searchLabel={t('entries.search')}
        selection={{ ...tab.selection, rowLabel }}
        toolbar={
          <>
            <DeleteSelected
              onOpen={tab.notice.clear}
              onClearSelection={tab.clearSelection}
              entity="entry"
              ids={tab.selectedRows.map((row) => row.id)}
              onDeleted={(count, position) => tab.deleted(t('success.entries', { count }), position)}
            />
            <CsvDownload tab={tab} />
          </>
        }
      />
    </ConsoleTabFrame>
  );
}
