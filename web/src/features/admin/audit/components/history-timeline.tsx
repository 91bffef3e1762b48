import type { TimelineAnswer } from '@sinilill/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { Spinner } from '../../../../components/ui/spinner';
import { useLang } from '../../../../lib/use-lang';
import { getTimeline } from '../api/history';
import { useLoad } from '../api/use-load';
import { formatChange } from '../utils/diff';
import { useFieldLabel } from '../utils/use-field-label';
import { formatAuditTime } from '../utils/tallinn-time';
import { ActorText } from './actor-text';
import { AuditSection } from './audit-section';
import styles from './audit.module.css';

export interface HistoryTimelineProps {
  /** The stream shown: `team-12`, `participant-34`, `entry-56`, … */
  stream: string;
  onClose: () => void;
}

/**
 * A stream's timeline (per team, participant and entry): its events oldest first,
 * each with actor, time (Europe/Tallinn), correlation id and the fields it changed as
 * "field: before → after" (GET /api/admin/history/timeline). The heading takes the focus when
 * a timeline opens, so that keyboard and screen-reader users land on it.
 */
export function HistoryTimeline({ stream, onClose }: HistoryTimelineProps) {
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const fieldLabel = useFieldLabel();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { state, load } = useLoad<TimelineAnswer>();

  useEffect(() => {
    void load((signal) => getTimeline(stream, signal));
    headingRef.current?.focus();
  }, [stream, load]);

  return (
    <AuditSection
      level={3}
      heading={t('history.timeline.heading', { stream })}
      headingRef={headingRef}
      intro={t('history.timeline.intro')}
      aside={
        <button type="button" className={formStyles.buttonSecondary} onClick={onClose} data-testid="history-timeline-close">
          {t('history.timeline.close')}
        </button>
      }
      testId="history-timeline"
      data={{ 'data-stream': stream }}
    >
      {state.status === 'loading' && <Spinner label={t('loading')} color="var(--brand)" />}
      {state.status === 'error' && <ErrorAlert code={state.code} />}
      {state.status === 'ready' && state.data.length === 0 && <p className={styles.muted}>{t('history.timeline.empty')}</p>}
      {state.status === 'ready' && state.data.length > 0 && (
        <ol className={styles.plainList}>
          {state.data.map((step) => (
            <li key={step.position} className={styles.timelineItem} data-testid="timeline-item" data-type={step.type} data-position={step.position}>
              <h4 className={styles.timelineTitle}>
                <span>{step.type}</span>
                <span className={styles.muted}>{t('history.timeline.position', { position: step.position })}</span>
              </h4>
              <dl className={styles.facts}>
                <dt>{t('history.timeline.actor')}</dt>
                <dd className={styles.mono}>
                  <ActorText actor={step.actor} testId="timeline-actor" />
                </dd>
                <dt>{t('history.timeline.time')}</dt>
                <dd>
                  <time dateTime={step.recordedAt}>{formatAuditTime(step.recordedAt, lang)}</time>
                </dd>
                <dt>{t('history.timeline.correlation')}</dt>
                <dd className={styles.mono} data-testid="timeline-correlation">
                  {step.correlationId ?? '—'}
                </dd>
              </dl>
              {step.changes.length === 0 ? (
                <p className={styles.muted}>{t('history.timeline.noChanges')}</p>
              ) : (
                <ul className={styles.diffs} aria-label={t('history.timeline.changes')}>
                  {step.changes.map((change) => (
                    <li key={change.field} className={styles.mono} data-testid="timeline-diff" data-field={change.field}>
                      {formatChange(change, fieldLabel)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </AuditSection>
  );
}
