import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn, type DataTableServer } from '../../../components/ui/data-table';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { TeamIcon } from '../../../components/ui/team-icon';
import { useMoneyRaised } from '../../../lib/use-money-raised';
import { useNumberFormat } from '../../../lib/use-number-format';
import type { TeamRow } from '../utils/team-rows';
import styles from './participants.module.css';

const rowId = (row: TeamRow) => row.id;

/**
 * The teams table (spec §2 "Participants"): row number, picture, name, km, teammates, blue
 * flowers and the money raised (euros); the first four value columns sort (biggest first on the first click), most km first by
 * default; searched by team name only; 10 per page; a row opens to the team's description. The
 * server pages, sorts and searches (`server`): `rows` is the page shown, and the
 * row number is the row's place in the whole order, (page - 1) × 10 + its place on the page.
 */
export function TeamsTable({ rows, server }: { rows: readonly TeamRow[]; server: DataTableServer }) {
  const { t } = useTranslation('participants');
  const format = useNumberFormat();
  const moneyRaised = useMoneyRaised();
  const columns = useMemo((): DataTableColumn<TeamRow>[] => {
    const figure = (id: 'distance' | 'participants' | 'blueFlowers', header: string): DataTableColumn<TeamRow> => ({
      id,
      header,
      value: (row) => row[id],
      cell: (row) => <span className={styles.figure}>{format(row[id])}</span>,
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
      // Column ids are the server's sort keys.
      {
        id: 'team_name',
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
      // The money raised: not a sort key of the server's, so not sortable.
      {
        id: 'raised',
        header: t('table.raised'),
        cell: (row) => {
          const raised = moneyRaised(row.raised, row.raisedUnknown);
          return <span className={styles.figure} data-testid="team-raised" title={raised.note}>{raised.text}</span>;
        },
        align: 'end',
      },
    ];
  }, [t, format, moneyRaised]);

  return (
    <DataTable
      data={rows}
      server={server}
      columns={columns}
      getRowId={rowId}
      testId="teams-table"
      caption={t('table.caption')}
      searchLabel={t('table.search')}
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
