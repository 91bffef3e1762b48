import type { TeamMember } from '@sinilill/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { entryTypeLabel } from '../../../lib/entry-type';
import { formatDate } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useLang } from '../../../lib/use-lang';
import { onFlushed, startEntryQueue, useEntryQueueStore } from '../offline/entry-queue-store';
import { useTeamStore } from '../stores/team-store';
import styles from './queued-entries.module.css';
import pageStyles from './team-page.module.css';

export interface QueuedEntriesProps {
  teamId: number;
  members: readonly TeamMember[];
  /** Queued entries were sent: refresh from the newest answer's position. */
  onSent: (position: number) => void;
}

/**
 * The team's entries added offline and not sent yet, each marked "waiting to
 * be sent", above the entries table; nothing when there are none. Mounting it starts the queue
 * (sent now if online, and on every `online` event); when a flush sent entries the page refreshes
 * and the status line says so; a refused entry's catalogue text shows there too.
 */
export function QueuedEntries({ teamId, members, onSent }: QueuedEntriesProps) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const showNotice = useTeamStore((s) => s.showNotice);
  const entries = useEntryQueueStore((s) => s.entries).filter((entry) => entry.teamId === teamId);

  useEffect(() => {
    const stop = onFlushed((result) => {
      const positions = result.sent.map((sent) => sent.position);
      if (positions.length > 0) onSent(Math.max(...positions));
      const refused = result.refused[0];
      if (refused) showNotice({ variant: 'error', code: refused.code });
      else if (result.sent.length > 0) showNotice({ variant: 'success', text: t('offline.sent', { count: result.sent.length }) });
    });
    startEntryQueue();
    return stop;
  }, [onSent, showNotice, t]);

  if (entries.length === 0) return null;
  const names = new Map(members.map((member) => [member.id, member.full_name]));
  return (
    <section className={`${pageStyles.section} ${styles.queued}`} aria-labelledby="queued-entries-heading" data-testid="queued-entries">
      <h2 id="queued-entries-heading" className={pageStyles.sectionHeading}>
        {t('offline.heading')}
      </h2>
      <p>{t('offline.intro')}</p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="sr-only">{t('offline.caption')}</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.end}>{t('offline.distance')}</th>
              <th scope="col">{t('offline.type')}</th>
              <th scope="col">{t('offline.member')}</th>
              <th scope="col">{t('offline.performedAt')}</th>
              <th scope="col">{t('offline.status')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.key} data-testid="queued-entry-row">
                <td className={styles.end}>{formatDistance(entry.body.distance, lang)}</td>
                <td>{entryTypeLabel(entry.body.entry_type, (type) => t(`entryTypes.${type}`))}</td>
                <td>{(entry.body.participant_id !== undefined ? names.get(entry.body.participant_id) : null) ?? t('members.deleted')}</td>
                <td className={pageStyles.nowrap}>{formatDate(entry.body.performed_at, lang)}</td>
                <td>
                  <span className={styles.status}>{t('offline.waiting')}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
