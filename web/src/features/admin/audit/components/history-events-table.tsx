import type { HistoryEvent, HistoryOrder } from '@sinilill/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronIcon } from '../../../../components/ui/icons';
import tableStyles from '../../../../components/ui/data-table/data-table.module.css';
import { pageWindow } from '../../../../components/ui/data-table/page-window';
import formStyles from '../../../../components/ui/form/form.module.css';
import { useLang } from '../../../../lib/use-lang';
import { useNumberFormat } from '../../../../lib/use-number-format';
import { HISTORY_PAGE_SIZES } from '../api/history';
import { MAX_SUMMARY_LENGTH, summarizeData } from '../utils/diff';
import { formatAuditTime, localInputToIso } from '../utils/tallinn-time';
import { useFieldLabel } from '../utils/use-field-label';
import { ActorText } from './actor-text';
import styles from './audit.module.css';

/** The columns, in their order (their headers' keys under history.table). */
const COLUMNS = ['position', 'time', 'type', 'stream', 'actor', 'correlation', 'data'] as const;

export interface HistoryEventsTableProps {
  events: readonly HistoryEvent[];
  /** The open page's number, from 1. */
  page: number;
  /** Events matching the filters (the server's count). */
  total: number;
  /** Open page `page` (from 1). */
  onPage: (page: number) => void;
  /** Open the page holding a moment (an ISO instant). */
  onMoment: (iso: string) => void;
  order: HistoryOrder;
  onOrderChange: (order: HistoryOrder) => void;
  pageSize: number;
  onPageSizeChange: (size: number) => void;
  /** The admin asked for a stream's timeline (its link in a row). */
  onOpenStream: (stream: string) => void;
  /** A page is loading: the paging buttons wait. */
  busy: boolean;
}

/**
 * One page of the global log: global position, time (Europe/Tallinn), event type,
 * stream (a link that opens its timeline), actor, correlation id and the event's data in one
 * line, its fields named in the page's language. Newest first unless the administrator chooses
 * oldest first; numbered pages (up to seven buttons around the open one), a page number to go
 * to, and a moment to go to (the page that holds it). Paged on the server, so not the shared
 * DataTable, which sorts and pages rows it holds; it borrows the DataTable's look. Rows:
 * `history-event` with `data-position` and `data-type`.
 */
export function HistoryEventsTable(props: HistoryEventsTableProps) {
  const { events, page, total, onPage, onMoment, order, onOrderChange, pageSize, onPageSizeChange, onOpenStream, busy } = props;
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const number = useNumberFormat();
  const fieldLabel = useFieldLabel();
  const captionId = useId();
  const pageSizeId = useId();
  const orderId = useId();
  const pageInputId = useId();
  const pageProblemId = useId();
  const momentId = useId();
  const momentHintId = useId();
  const momentProblemId = useId();
  const [pageInput, setPageInput] = useState('');
  const [pageProblem, setPageProblem] = useState(false);
  const [moment, setMoment] = useState('');
  const [momentProblem, setMomentProblem] = useState(false);
  const first = events[0]?.position;
  const last = events[events.length - 1]?.position;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const goToPage = (event: FormEvent) => {
    event.preventDefault();
    const wanted = Number(pageInput.trim());
    const ok = Number.isInteger(wanted) && wanted >= 1 && wanted <= pages;
    setPageProblem(!ok);
    if (ok) onPage(wanted);
  };
  const goToMoment = (event: FormEvent) => {
    event.preventDefault();
    const iso = localInputToIso(moment);
    setMomentProblem(iso === null);
    if (iso !== null) onMoment(iso);
  };

  return (
    <div className={tableStyles.root}>
      <div className={styles.historyTools}>
        <div className={tableStyles.pageSize}>
          <label htmlFor={orderId}>{t('history.paging.order')}</label>
          <select
            id={orderId}
            className={tableStyles.pageSizeSelect}
            value={order}
            onChange={(event) => onOrderChange(event.target.value === 'asc' ? 'asc' : 'desc')}
            data-testid="history-order"
          >
            <option value="desc">{t('history.paging.newestFirst')}</option>
            <option value="asc">{t('history.paging.oldestFirst')}</option>
          </select>
        </div>
        <form className={styles.jump} onSubmit={goToPage} noValidate>
          <label htmlFor={pageInputId}>{t('history.paging.goToPage')}</label>
          <input
            id={pageInputId}
            className={tableStyles.pageSizeSelect}
            inputMode="numeric"
            size={6}
            value={pageInput}
            onChange={(event) => setPageInput(event.target.value)}
            aria-invalid={pageProblem}
            aria-describedby={pageProblem ? pageProblemId : undefined}
            data-testid="history-goto-page"
          />
          <button type="submit" className={formStyles.buttonSecondary} disabled={busy} data-testid="history-goto-page-submit">
            {t('history.paging.goToPageButton')}
          </button>
          {pageProblem && (
            <span id={pageProblemId} className={styles.jumpProblem} role="alert">
              {t('history.paging.pageProblem', { pages: number(pages) })}
            </span>
          )}
        </form>
        <form className={styles.jump} onSubmit={goToMoment} noValidate>
          <label htmlFor={momentId}>{t('history.paging.goToDate')}</label>
          <input
            id={momentId}
            type="datetime-local"
            className={tableStyles.pageSizeSelect}
            value={moment}
            onChange={(event) => setMoment(event.target.value)}
            aria-invalid={momentProblem}
            aria-describedby={momentProblem ? `${momentHintId} ${momentProblemId}` : momentHintId}
            data-testid="history-goto-date"
          />
          <button type="submit" className={formStyles.buttonSecondary} disabled={busy} data-testid="history-goto-date-submit">
            {t('history.paging.goToDateButton')}
          </button>
          <span id={momentHintId} className={styles.jumpHint}>{t('history.paging.goToDateHint')}</span>
          {momentProblem && (
            <span id={momentProblemId} className={styles.jumpProblem} role="alert">
              {t('history.paging.dateProblem')}
            </span>
          )}
        </form>
      </div>
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
                  <td className={`${tableStyles.cell} ${styles.summaryCell}`}>{summarizeData(event.data, MAX_SUMMARY_LENGTH, fieldLabel)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className={tableStyles.footer}>
        <p className={styles.pagingInfo} aria-live="polite" data-testid="history-page-info">
          {t('history.paging.pageOf', { page: number(page), pages: number(pages) })}
          {` · ${t('history.paging.total', { count: total, shown: number(total) })}`}
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
          <button type="button" className={tableStyles.pageButton} onClick={() => onPage(page - 1)} disabled={page <= 1 || busy} data-testid="history-prev">
            <ChevronIcon direction="left" size={16} />
            {t('history.paging.previous')}
          </button>
          {pageWindow(pages, page - 1).map((index) => (
            <button
              key={index}
              type="button"
              className={tableStyles.pageButton}
              onClick={() => onPage(index + 1)}
              disabled={busy}
              aria-current={index + 1 === page ? 'page' : undefined}
              aria-label={t('history.paging.pageButton', { page: index + 1 })}
              data-testid={`history-page-${index + 1}`}
            >
              {index + 1}
            </button>
          ))}
          <button type="button" className={tableStyles.pageButton} onClick={() => onPage(page + 1)} disabled={page >= pages || busy} data-testid="history-next">
            {t('history.paging.next')}
            <ChevronIcon direction="right" size={16} />
          </button>
        </nav>
      </div>
    </div>
  );
}
