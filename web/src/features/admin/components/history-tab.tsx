import type { HistoryOrder, HistoryPage } from '@sinilill/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { focusField } from '../../../components/ui/form/problem-text';
import { Spinner } from '../../../components/ui/spinner';
import { AccountEmailsProvider, useLoadAccountEmails } from '../audit/api/account-emails';
import { getHistoryPage, HISTORY_PAGE_SIZE, type HistoryPlace } from '../audit/api/history';
import { lastData, useLoad } from '../audit/api/use-load';
import { AuditSection } from '../audit/components/audit-section';
import { ExportButtons } from '../audit/components/export-buttons';
import { HistoryEventsTable } from '../audit/components/history-events-table';
import { HistoryFilterForm, type ShownProblem } from '../audit/components/history-filter-form';
import { HistoryTimeline } from '../audit/components/history-timeline';
import { TeamAsOf } from '../audit/components/team-as-of';
import {
  checkFilters,
  EMPTY_FILTERS,
  FILTER_FIELDS,
  historyFilterQuery,
  isEntityId,
  type FilterField,
  type HistoryFilterQuery,
  type HistoryFilterValues,
} from '../audit/utils/history-filters';
import { participantStream, teamStream } from '../audit/utils/streams';
import styles from '../audit/components/audit.module.css';

/** A new filter, order or page size opens the first page. */
const FIRST_PAGE: HistoryPlace = { page: 1 };

/**
 * The event history tab: the global event log for an audit, read by administrators
 * only (the server answers anyone else 403).
 *
 * - Filters (stream, entity type, team, participant, event type, actor, a Europe/Tallinn time
 *   range) → GET /api/admin/history, newest first unless oldest first is chosen, in numbered
 *   pages (the server counts the matches), with a page number or a moment to go to.
 * - A stream's timeline (a row's stream link, or the team / participant number typed in):
 *   actor, time, correlation id and "field: before → after" per event.
 * - A team's figures as of a past moment, folded from its events by the server.
 * - Export of the filtered events as NDJSON or CSV, fetched with the admin's token.
 */
export function HistoryTab() {
  const { t } = useTranslation('adminAudit');
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<HistoryFilterValues>(EMPTY_FILTERS);
  const [problems, setProblems] = useState<Partial<Record<FilterField, ShownProblem>>>({});
  const [applied, setApplied] = useState<HistoryFilterQuery>({});
  const [order, setOrder] = useState<HistoryOrder>('desc');
  const [place, setPlace] = useState<HistoryPlace>(FIRST_PAGE);
  const [pageSize, setPageSize] = useState(HISTORY_PAGE_SIZE);
  const [timeline, setTimeline] = useState<string | null>(null);
  const timelineOpener = useRef<HTMLElement | null>(null);
  const { state, load } = useLoad<HistoryPage>();
  const accountEmails = useLoadAccountEmails();

  useEffect(() => {
    void load((signal) => getHistoryPage(applied, order, place, pageSize, signal));
  }, [applied, order, place, pageSize, load]);

  /** The filters as typed, or null after marking the fields in error and focusing the first. */
  const checkedFilters = useCallback((): HistoryFilterQuery | null => {
    const found = checkFilters(values);
    setProblems(found);
    const first = FILTER_FIELDS.find((field) => found[field] !== undefined);
    if (first) {
      focusField(formRef.current, first);
      return null;
    }
    return historyFilterQuery(values);
  }, [values]);

  const apply = () => {
    const query = checkedFilters();
    if (query === null) return;
    // A new object even for the same filters: applying again reloads the first page.
    setApplied(query);
    setPlace(FIRST_PAGE);
  };

  const clear = () => {
    setValues(EMPTY_FILTERS);
    setProblems({});
    setApplied({});
    setPlace(FIRST_PAGE);
  };

  const change = (field: FilterField, value: string) => {
    setValues((before) => ({ ...before, [field]: value }));
    setProblems((before) => (before[field] === undefined ? before : { ...before, [field]: undefined }));
  };

  /** The team or participant number typed in, or null after saying what is missing. */
  const requireId = useCallback(
    (field: 'teamId' | 'participantId'): string | null => {
      const value = values[field].trim();
      let problem: ShownProblem | undefined;
      if (value === '') problem = field === 'teamId' ? 'teamRequired' : 'participantRequired';
      else if (!isEntityId(value)) problem = 'invalidId';
      setProblems((before) => ({ ...before, [field]: problem }));
      if (problem) {
        focusField(formRef.current, field);
        return null;
      }
      return value;
    },
    [values],
  );

  const openTimeline = (stream: string | null) => {
    if (stream === null) return;
    timelineOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setTimeline(stream);
  };

  const closeTimeline = () => {
    setTimeline(null);
    // Back to the control that opened it, when it is still there (a row of another page is not).
    if (timelineOpener.current?.isConnected) timelineOpener.current.focus();
    timelineOpener.current = null;
  };

  const page = lastData(state);
  const requireTeamId = useCallback(() => requireId('teamId'), [requireId]);

  return (
    <AccountEmailsProvider value={accountEmails}>
      <div className={styles.tab}>
        <AuditSection level={2} heading={t('history.heading')} intro={t('history.intro')}>
          <HistoryFilterForm
            formRef={formRef}
            values={values}
            problems={problems}
            onChange={change}
            onApply={apply}
            onClear={clear}
            onOpenTeamTimeline={() => {
              const id = requireId('teamId');
              openTimeline(id === null ? null : teamStream(id));
            }}
            onOpenParticipantTimeline={() => {
              const id = requireId('participantId');
              openTimeline(id === null ? null : participantStream(id));
            }}
          />
        </AuditSection>
        {timeline !== null && <HistoryTimeline key={timeline} stream={timeline} onClose={closeTimeline} />}
        <AuditSection level={3} heading={t('history.table.caption')}>
          {state.status === 'error' && <ErrorAlert code={state.code} />}
          {page ? (
            <HistoryEventsTable
              events={page.events}
              page={page.page ?? 1}
              total={page.total ?? page.events.length}
              onPage={(number) => setPlace({ page: number })}
              onMoment={(at) => setPlace({ at })}
              order={order}
              onOrderChange={(next) => {
                setOrder(next);
                setPlace(FIRST_PAGE);
              }}
              pageSize={pageSize}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPlace(FIRST_PAGE);
              }}
              onOpenStream={openTimeline}
              busy={state.status === 'loading'}
            />
          ) : (
            state.status === 'loading' && <Spinner label={t('loading')} color="var(--brand)" />
          )}
        </AuditSection>
        <ExportButtons currentFilters={checkedFilters} />
        <TeamAsOf requireTeamId={requireTeamId} />
      </div>
    </AccountEmailsProvider>
  );
}
