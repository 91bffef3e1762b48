import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../components/ui/data-table';
import { formatDate, formatDateTime } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { entryTypeLabel } from '../../../lib/entry-type';
import { getEntries, type AdminReadOptions } from '../api/get-admin-data';
import { entryRows, type EntryRow } from '../utils/rows';
import { AdminTable } from './console/admin-table';
import { OrDash, PersonName } from './console/cells';
import { ConsoleTabFrame, useConsoleTab } from './console/console-tab';
import { DeleteSelected } from './console/delete-selected';
import styles from './console/console.module.css';

const loadEntries = (options: AdminReadOptions) => getEntries(options).then((answer) => entryRows(answer.entries));
const entryId = (row: EntryRow) => String(row.id);
const notSearched = () => '';

/**
 * The entries tab (spec §2 "Admin" → Entries; §3 "Entry"): the person's full name, team, distance
 * (km, two decimals), type (a preset translated as on the team page, else the typed text), done
 * on (DD-MMM-YYYY) and created at (DD-MMM-YYYY HH:mm, Europe/Tallinn); searched by name and team;
 * 50 per page, newest first. Selected entries are deleted for good after a confirmation.
 */
export function EntriesTab() {
  const { t } = useTranslation('admin');
  const { t: tTeam } = useTranslation('team');
  const lang = useLang();
  const tab = useConsoleTab(loadEntries, entryId);

  const columns = useMemo((): DataTableColumn<EntryRow>[] => {
    const typeLabel = (row: EntryRow) => entryTypeLabel(row.entryType, (type) => tTeam(`entryTypes.${type}`));
    return [
      {
        id: 'fullName',
        header: t('entries.fullName'),
        value: (row) => row.fullName,
        cell: (row) => <PersonName name={row.fullName} />,
        searchText: (row) => row.fullName ?? t('console.deleted'),
        rowHeader: true,
      },
      { id: 'team', header: t('entries.team'), value: (row) => row.teamName, cell: (row) => <OrDash value={row.teamName} /> },
      {
        id: 'distance',
        header: t('entries.distance'),
        value: (row) => row.distance,
        cell: (row) => formatDistance(row.distance),
        align: 'end',
        sortDescFirst: true,
      },
      // Only the name and the team are searched (spec §2).
      { id: 'type', header: t('entries.type'), value: typeLabel, searchText: notSearched },
      {
        id: 'performedAt',
        header: t('entries.performedAt'),
        value: (row) => row.performedAt,
        cell: (row) => <span className={styles.nowrap}>{formatDate(row.performedAt, lang)}</span>,
        searchText: notSearched,
        sortDescFirst: true,
      },
      {
        id: 'createdAt',
        header: t('entries.createdAt'),
        value: (row) => row.createdMs,
        cell: (row) => <span className={styles.nowrap}>{formatDateTime(row.createdAt, lang)}</span>,
        sortDescFirst: true,
      },
    ];
  }, [t, tTeam, lang]);

  const rowLabel = useCallback(
    (row: EntryRow) =>
      t('entries.select', { name: row.fullName ?? t('console.deleted'), distance: formatDistance(row.distance), date: formatDate(row.performedAt, lang) }),
    [t, lang],
  );

  return (
    <ConsoleTabFrame tab={tab}>
      <AdminTable
        testId="admin-entries-table"
        data={tab.rows}
        columns={columns}
        getRowId={entryId}
        caption={t('entries.caption')}
        searchLabel={t('entries.search')}
        initialSort={{ id: 'createdAt', desc: true }}
        selection={{ ...tab.selection, rowLabel }}
        toolbar={
          <DeleteSelected
            onOpen={tab.notice.clear}
            entity="entry"
            ids={tab.selectedRows.map((row) => row.id)}
            onDeleted={(count, position) => tab.deleted(t('success.entries', { count }), position)}
          />
        }
      />
    </ConsoleTabFrame>
  );
}
