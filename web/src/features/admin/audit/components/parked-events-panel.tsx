import type { ParkedEvent, ParkedEventsAnswer } from '@sinilill/contracts';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../../components/ui/data-table/data-table.module.css';
import { ModalDialog } from '../../../../components/ui/dialog/modal-dialog';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { Spinner } from '../../../../components/ui/spinner';
import { useAction } from '../../../../lib/use-action';
import { useLang } from '../../../../lib/use-lang';
import { ALERT_MS, useTimedValue } from '../../../../lib/use-timed-value';
import { getParkedEvents, retryParkedEvent, skipParkedEvent } from '../api/operations';
import { lastData, useLoad } from '../api/use-load';
import { outcomeOf, parkKey, projectionsWithParks, totalParked, type ParkedOutcome } from '../utils/parked';
import { formatAuditTime } from '../utils/tallinn-time';
import { AuditSection } from './audit-section';
import styles from './audit.module.css';

/** A decision under way or just made, for the row it concerns. */
type Decision = { kind: 'retry' | 'skip'; park: ParkedEvent };

/**
 * Parked events: events a projection could not apply because of their data wait here
 * with their error while the projection goes on. Each row offers "retry" (after the cause was
 * fixed: the projection applies it again) and "skip" (after a confirmation with an optional
 * reason: the projection passes over it for good); both are recorded in the event log. After a
 * decision the list is read again once the projections have acted on it (x-min-position), and
 * the outcome is said for 2 s (spec §9 admin alerts). The heading line counts the open parks per
 * projection, the metric an operator watches. The event's data is never shown.
 */
export function ParkedEventsPanel() {
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const captionId = useId();
  const reasonId = useId();
  const { state, load } = useLoad<ParkedEventsAnswer>();
  const data = lastData(state);
  const decide = useAction(async ({ kind, park }: Decision, reason: string) => {
    const { position } = kind === 'retry'
      ? await retryParkedEvent(park.position, park.projection)
      : await skipParkedEvent(park.position, park.projection, reason);
    return { position, kind, park };
  });
  const [working, setWorking] = useState<string | null>(null);
  const [skipping, setSkipping] = useState<ParkedEvent | null>(null);
  const [reason, setReason] = useState('');
  const [outcome, showOutcome, clearOutcome] = useTimedValue<ParkedOutcome>(ALERT_MS);

  const refresh = useCallback((minPosition?: number) => load((signal) => getParkedEvents(minPosition, signal)), [load]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const run = async (decision: Decision, why = '') => {
    clearOutcome();
    setWorking(parkKey(decision.park));
    const done = await decide.run(decision, why);
    setWorking(null);
    if (!done.ok) return;
    // The list as the projections left it after acting on the decision.
    const seen: { after?: ParkedEventsAnswer } = {};
    await load(async (signal) => {
      seen.after = await getParkedEvents(done.result.position, signal);
      return seen.after;
    });
    if (seen.after) showOutcome(outcomeOf(decision.kind, decision.park, seen.after));
  };

  const openSkip = (park: ParkedEvent) => {
    setReason('');
    setSkipping(park);
  };

  const total = data ? totalParked(data) : 0;
  return (
    <AuditSection
      level={2}
      heading={t('operations.parked.heading')}
      intro={t('operations.parked.intro')}
      testId="parked-events"
      aside={
        <button type="button" className={formStyles.buttonSecondary} onClick={() => void refresh()} aria-busy={state.status === 'loading'} data-testid="parked-refresh">
          {t('operations.parked.refresh')}
        </button>
      }
    >
      {state.status === 'loading' && !data && <Spinner label={t('loading')} color="var(--brand)" />}
      {state.status === 'error' && <ErrorAlert code={state.code} />}
      {data && (
        <p className={styles.muted} data-testid="parked-count" data-count={total}>
          {total === 0
            ? t('operations.parked.none')
            : t('operations.parked.count', {
                count: total,
                projections: projectionsWithParks(data).map((c) => t('operations.parked.perProjection', { projection: c.projection, count: c.parked })).join(', '),
              })}
        </p>
      )}
      {data && data.events.length > 0 && (
        <div className={tableStyles.root}>
          <div className={tableStyles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
            <table className={tableStyles.table} data-testid="parked-table">
              <caption id={captionId} className="sr-only">
                {t('operations.parked.caption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className={`${tableStyles.headerCell} ${tableStyles.alignEnd}`}>{t('operations.parked.position')}</th>
                  <th scope="col" className={tableStyles.headerCell}>{t('operations.parked.projection')}</th>
                  <th scope="col" className={tableStyles.headerCell}>{t('operations.parked.type')}</th>
                  <th scope="col" className={tableStyles.headerCell}>{t('operations.parked.error')}</th>
                  <th scope="col" className={tableStyles.headerCell}>{t('operations.parked.parkedAt')}</th>
                  <th scope="col" className={`${tableStyles.headerCell} ${tableStyles.alignEnd}`}>{t('operations.parked.attempts')}</th>
                  <th scope="col" className={tableStyles.headerCell}>{t('operations.parked.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((park, index) => {
                  const key = parkKey(park);
                  const busy = working === key;
                  const label = { position: park.position, projection: park.projection };
                  return (
                    <tr key={key} className={index % 2 === 1 ? tableStyles.striped : undefined} data-testid="parked-event" data-position={park.position} data-projection={park.projection}>
                      <td className={`${tableStyles.cell} ${tableStyles.alignEnd}`}>{park.position}</td>
                      <th scope="row" className={`${tableStyles.cell} ${tableStyles.rowHeader}`}>{park.projection}</th>
                      <td className={tableStyles.cell}>{park.eventType}</td>
                      <td className={`${tableStyles.cell} ${styles.summaryCell}`} data-testid="parked-error">
                        <span className={styles.mono}>{park.errorCode}</span> {park.error}
                      </td>
                      <td className={`${tableStyles.cell} ${styles.nowrap}`}>{formatAuditTime(park.parkedAt, lang)}</td>
                      <td className={`${tableStyles.cell} ${tableStyles.alignEnd}`}>{park.attempts}</td>
                      <td className={tableStyles.cell}>
                        <div className={formStyles.actions}>
                          <button
                            type="button"
                            className={formStyles.button}
                            aria-busy={busy}
                            aria-disabled={working !== null}
                            aria-label={t('operations.parked.retryLabel', label)}
                            onClick={() => working === null && void run({ kind: 'retry', park })}
                            data-testid="parked-retry"
                          >
                            {busy ? t('operations.parked.working') : t('operations.parked.retry')}
                          </button>
                          <button
                            type="button"
                            className={formStyles.buttonSecondary}
                            aria-disabled={working !== null}
                            aria-label={t('operations.parked.skipLabel', label)}
                            onClick={() => working === null && openSkip(park)}
                            data-testid="parked-skip"
                          >
                            {t('operations.parked.skip')}
                          </button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {decide.state.status === 'error' && <ErrorAlert code={decide.state.code} />}
      {outcome && (
        <div data-testid="parked-outcome" data-outcome={outcome}>
          <Alert variant={outcome === 'still-parked' ? 'error' : 'success'}>{t(`operations.parked.outcome.${outcome}`)}</Alert>
        </div>
      )}
      <ModalDialog
        open={skipping !== null}
        onClose={() => setSkipping(null)}
        title={t('operations.parked.skipTitle', { position: skipping?.position ?? '', projection: skipping?.projection ?? '' })}
        testId="parked-skip-confirm"
      >
        <p>{t('operations.parked.skipText', { projection: skipping?.projection ?? '' })}</p>
        <div className={formStyles.field}>
          <label htmlFor={reasonId} className={formStyles.label}>
            {t('operations.parked.reason')}
          </label>
          <textarea id={reasonId} className={formStyles.input} rows={3} value={reason} onChange={(event) => setReason(event.target.value)} data-testid="parked-skip-reason" />
        </div>
        <div className={formStyles.actions}>
          <button
            type="button"
            className={formStyles.button}
            onClick={() => {
              const park = skipping;
              setSkipping(null);
              if (park) void run({ kind: 'skip', park }, reason);
            }}
            data-testid="parked-skip-yes"
          >
            {t('operations.parked.skipYes')}
          </button>
          <button type="button" className={formStyles.buttonSecondary} onClick={() => setSkipping(null)} data-autofocus data-testid="parked-skip-no">
            {t('operations.parked.skipNo')}
          </button>
        </div>
      </ModalDialog>
    </AuditSection>
  );
}
