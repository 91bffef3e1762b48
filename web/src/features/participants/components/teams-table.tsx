import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { TeamIcon } from '../../../components/ui/team-icon';
import { useNumberFormat } from '../../../lib/use-number-format';
import type { TeamRow } from '../utils/team-rows';
import styles from './participants.module.css';

const rowId = (row: TeamRow) => row.id;

/**
 * The teams table (spec §2 "Participants"): row number, picture, name, km, teammates and blue
 * flowers; the four value columns sort (biggest first on the first click), most km first by
 * default; searched by team name only; 10 per page; a row opens to the team's description.
 */
export function TeamsTable({ rows }: { rows: readonly TeamRow[] }) {
  const { t } = useTranslation('participants');
  const format = useNumberFormat();
  const columns = useMemo((): DataTableColumn<TeamRow>[] => {
    const figure = (id: 'distance' | 'participants' | 'blueFlowers', header: string): DataTableColumn<TeamRow> => ({
      id,
      header,
      value: (row) => row[id],
      cell: (row) => <span className={styles.figure}>{format(row[id])}</span>,
      // Only the name is searched (spec §2): a figure is not a name.
      searchText: () => '',
      align: 'end',
      sortDescFirst: true,
    });
    return [
      {
        id: 'icon',
        header: t('table.icon'),
        headerHidden: true,
        // Decorative: the team's name is the next cell.
        cell: (row) => <TeamIcon icon={row.icon} size={36} />,
        align: 'center',
      },
      {
        id: 'name',
        header: t('table.name'),
        value: (row) => row.name,
        sortDescFirst: true,
        rowHeader: true,
      },
      figure('distance', t('table.distance')),
      figure('participants', t('table.participants')),
      {
        ...figure('blueFlowers', t('table.blueFlowers')),
        cell: (row) => (
          <span className={styles.figure}>
            {format(row.blueFlowers)}
            <FlowerIcon size={16} />
          </span>
        ),
      },
    ];
  }, [t, format]);

  return (
    <DataTable
      data={rows}
      columns={columns}
      getRowId={rowId}
      testId="teams-table"
      caption={t('table.caption')}
      searchLabel={t('table.search')}
      initialSort={{ id: 'distance', desc: true }}
      rowNumbers
      expand={(row) =>
        row.description === '' ? (
          <p className={styles.noDescription}>{t('table.noDescription')}</p>
        ) : (
          <p className={styles.description}>{row.description}</p>
        )
      }
      expandLabel={(row) => t('table.about', { name: row.name })}
    />
  );
}
