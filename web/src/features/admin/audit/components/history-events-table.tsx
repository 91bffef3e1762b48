import type { HistoryEvent } from '@sinilill/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronIcon } from '../../../../components/ui/icons';
import tableStyles from '../../../../components/ui/data-table/data-table.module.css';
import formStyles from '../../../../components/ui/form/form.module.css';
import { useLang } from '../../../../lib/use-lang';
import { HISTORY_PAGE_SIZES } from '../api/history';
import { summarizeData } from '../utils/diff';
import { formatAuditTime } from '../utils/tallinn-time';
import { ActorText } from './actor-text';
import styles from './audit.module.css';

/** The columns, in their order (their headers' keys under history.table). */
const COLUMNS = ['position', 'time', 'type', 'stream', 'actor', 'correlation', 'data'] as const;

export interface HistoryEventsTableProps {
  events: readonly HistoryEvent[];
  /** The open page's number, from 1. */
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  pageSize: number;
  onPageSizeChange: (size: number) => void;
  /** The admin asked for a stream's timeline (its link in a row). */
  onOpenStream: (stream: string) => void;
  /** A page is loading: the paging buttons wait. */
  busy: boolean;
}

/**
 * One page of the global log (issue 6): global position, time (Europe/Tallinn), event type,
 * stream (a link that opens its timeline), actor, correlation id and the event's data in one
 * line. Paged by global position on the server, so not the shared DataTable, which sorts and
 * pages rows it holds; it borrows the DataTable's look. Rows: `history-event` with
 * `data-position` and `data-type`.
 */
export function HistoryEventsTable(props: HistoryEventsTableProps) {
  const { events, page, hasPrevious, hasNext, onPrevious, onNext, pageSize, onPageSizeChange, onOpenStream, busy } = props;
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const captionId = useId();
  const pageSizeId = useId();
  const first = events[0]?.position;
  const last = events[events.length - 1]?.position;

  return (
    <div className={tableStyles.root}>
      <div className={tableStyles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={tableStyles.table} data-testid="history-events" aria-busy={busy}>
          <caption id={captionId} className="sr-only">
            {t('history.table.caption')}
          </caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className={column === 'position' ? `${tableStyles.headerCell} ${tableStyles.alignEnd}` : tableStyles.headerCell}>
                  {t(`history.table.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {events.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length} className={tableStyles.empty} data-testid="history-events-empty">
                  {t('history.table.empty')}
                </td>
              </tr>
            ) : (
              events.map((event, index) => (
                <tr key={event.position} className={index % 2 === 1 ? tableStyles.striped : undefined} data-testid="history-event" data-position={event.position} data-type={event.type}>
                  <td className={`${tableStyles.cell} ${tableStyles.alignEnd}`}>{event.position}</td>
                  <td className={`${tableStyles.cell} ${styles.nowrap}`}>
                    <time dateTime={event.recordedAt}>{formatAuditTime(event.recordedAt, lang)}</time>
                  </td>
                  <th scope="row" className={`${tableStyles.cell} ${tableStyles.rowHeader}`}>
                    {event.type}
                  </th>
                  <td className={tableStyles.cell}>
                    <button
                      type="button"
                      className={`${formStyles.linkButton} ${styles.streamLink}`}
                      onClick={() => onOpenStream(event.stream)}
                      aria-label={t('history.table.openTimeline', { stream: event.stream })}
                      data-testid="history-stream-link"
                    >
                      {event.stream}
                    </button>
                  </td>
                  <td className={`${tableStyles.cell} ${styles.mono}`}>
                    <ActorText actor={event.actor} />
                  </td>
                  <td className={`${tableStyles.cell} ${styles.mono}`}>{event.correlationId ?? '—'}</td>
                  <td className={`${tableStyles.cell} ${styles.summaryCell}`}>{summarizeData(event.data)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className={tableStyles.footer}>
        <p className={styles.pagingInfo} aria-live="polite" data-testid="history-page-info">
          {t('history.paging.page', { page })}
          {first !== undefined && last !== undefined && ` · ${t('history.paging.range', { first, last })}`}
        </p>
        <div className={tableStyles.pageSize}>
          <label htmlFor={pageSizeId}>{t('history.paging.pageSize')}</label>
          <select
            id={pageSizeId}
            className={tableStyles.pageSizeSelect}
            value={pageSize}
            onChange={(event) => onPageSizeChange(Number(event.target.value))}
            data-testid="history-page-size"
          >
            {HISTORY_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <nav className={tableStyles.pagination} aria-label={t('history.paging.label')}>
          <button type="button" className={tableStyles.pageButton} onClick={onPrevious} disabled={!hasPrevious || busy} data-testid="history-prev">
            <ChevronIcon direction="left" size={16} />
            {t('history.paging.previous')}
          </button>
          <button type="button" className={tableStyles.pageButton} onClick={onNext} disabled={!hasNext || busy} data-testid="history-next">
            {t('history.paging.next')}
            <ChevronIcon direction="right" size={16} />
          </button>
        </nav>
      </div>
    </div>
  );
}
