import type { TeamMember } from '@sinilill/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { CheckIcon, CrossIcon } from '../../../components/ui/icons';
import { distanceSearchText, formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import styles from './team-page.module.css';

const memberId = (member: TeamMember) => String(member.id);

/**
 * The members table (spec §2): name (an erased person as "deleted person"), distance with two
 * decimals and the paid mark; sortable, searchable, 10 per page, by distance descending.
 */
export function MembersTable({ members }: { members: readonly TeamMember[] }) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const columns = useMemo((): DataTableColumn<TeamMember>[] => {
    const name = (member: TeamMember) => member.full_name ?? t('members.deleted');
    return [
      {
        id: 'name',
        header: t('members.name'),
        value: name,
        cell: (member) => (member.full_name === null ? <span className={styles.muted}>{name(member)}</span> : name(member)),
        rowHeader: true,
      },
      {
        id: 'distance',
        header: t('members.distance'),
        value: (member) => member.distance,
        cell: (member) => formatDistance(member.distance, lang),
        searchText: (member) => distanceSearchText(member.distance, lang),
        align: 'end',
        sortDescFirst: true,
      },
      {
        id: 'paid',
        header: t('members.paid'),
        value: (member) => member.is_paid,
        searchText: (member) => (member.is_paid ? t('members.isPaid') : t('members.notPaid')),
        cell: (member) => (
          <span className={member.is_paid ? styles.paid : styles.notPaid}>
            {member.is_paid ? <CheckIcon size={20} /> : <CrossIcon size={20} />}
            <span className="sr-only">{member.is_paid ? t('members.isPaid') : t('members.notPaid')}</span>
          </span>
        ),
        align: 'center',
      },
    ];
  }, [t, lang]);

  return (
    <section className={styles.section} aria-labelledby="members-heading">
      <h2 id="members-heading" className={styles.sectionHeading}>
        {t('members.heading')}
      </h2>
      <DataTable
        data={members}
        columns={columns}
        getRowId={memberId}
        testId="members-table"
        caption={t('members.caption')}
        searchLabel={t('members.search')}
        initialSort={{ id: 'distance', desc: true }}
      />
    </section>
  );
}
