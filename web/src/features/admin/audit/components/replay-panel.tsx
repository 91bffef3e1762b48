import type { ReplayResultAnswer, ReplayStatus } from '@sinilill/contracts';
import { Fragment, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../../components/ui/data-table/data-table.module.css';
import { ModalDialog } from '../../../../components/ui/dialog/modal-dialog';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { useLang } from '../../../../lib/use-lang';
import { useNumberFormat } from '../../../../lib/use-number-format';
import { useReplay } from '../api/use-replay';
import {
  changedTotals, checksumDifferences, checksumSummary, checksumVerdict, FINAL_STEP, liveColumnsDiffer, REPLAY_TOTALS, replayPercent, totalsEqual,
  type ReplayChecksum, type ReplayTotals,
} from '../utils/replay';
import { formatAuditTime } from '../utils/tallinn-time';
import { AuditSection } from './audit-section';
import styles from './audit.module.css';

/**
 * The operators' replay (docs/decisions/0017): after a confirmation, POST /api/admin/replay
 * enqueues a rebuild of every read model; the panel then follows the job every 500 ms with a
 * progress bar (role=progressbar, the projection being rebuilt) until it completes or fails,
 * and shows the totals before and after side by side and whether they are identical, then each
 * read-model table's checksums compared before the swap. A replay already
 * waiting or running (409) is said so.
 */
export function ReplayPanel() {
  const { t } = useTranslation('adminAudit');
  const [confirming, setConfirming] = useState(false);
  const { view, start } = useReplay();
  const busy = view.phase === 'starting' || view.phase === 'following';

  return (
    <AuditSection level={2} heading={t('operations.replay.heading')} intro={t('operations.replay.intro')} testId="replay">
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.button} disabled={busy} onClick={() => setConfirming(true)} data-testid="replay-start">
          {view.phase === 'starting' ? t('operations.replay.starting') : t('operations.replay.start')}
        </button>
      </div>
      <ModalDialog open={confirming} onClose={() => setConfirming(false)} title={t('operations.replay.confirmTitle')} testId="replay-confirm">
        <p>{t('operations.replay.confirmText')}</p>
        <div className={formStyles.actions}>
          <button
            type="button"
            className={formStyles.button}
            onClick={() => {
              setConfirming(false);
              void start();
            }}
            data-testid="replay-confirm-yes"
          >
            {t('operations.replay.confirmYes')}
          </button>
          <button type="button" className={formStyles.buttonSecondary} onClick={() => setConfirming(false)} data-autofocus data-testid="replay-confirm-no">
            {t('operations.replay.confirmNo')}
          </button>
        </div>
      </ModalDialog>
      {view.phase === 'conflict' && (
        <div data-testid="replay-conflict">
          <Alert variant="error">{t('operations.replay.alreadyRunning')}</Alert>
        </div>
      )}
      {view.phase === 'error' && <ErrorAlert code={view.code} />}
      {view.phase === 'following' && <ReplayProgress status={view.status} />}
      {view.phase === 'finished' && view.status.state === 'failed' && (
        <div data-testid="replay-failed">
          <Alert variant="error">{t('operations.replay.failed')}</Alert>
        </div>
      )}
      {view.phase === 'finished' && view.status.state === 'completed' && (
        <>
          <ReplayProgress status={view.status} />
          {view.status.result && <ReplayResult result={view.status.result} />}
        </>
      )}
    </AuditSection>
  );
}

/** The progress bar: percent (aria-valuenow) and the step under way (aria-valuetext). */
function ReplayProgress({ status }: { status: ReplayStatus | null }) {
  const { t } = useTranslation('adminAudit');
  const percent = status ? replayPercent(status) : 0;
  let step: string;
  if (status === null || status.state === 'waiting') step = t('operations.replay.waiting');
  else if (status.state === 'completed') step = t('operations.replay.completed');
  else if (!status.progress) step = t('operations.replay.started');
  else if (status.progress.projection === FINAL_STEP) step = t('operations.replay.finalStep');
  else step = t('operations.replay.rebuilding', { projection: status.progress.projection });
  const text = t('operations.replay.progressText', { percent, step });
  return (
    <div className={styles.stack}>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label={t('operations.replay.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        data-testid="replay-progress"
        data-state={status?.state ?? 'waiting'}
      >
        <div className={styles.progressFill} style={{ width: `${percent}%` }} />
      </div>
      <p className={styles.muted} aria-live="polite" data-testid="replay-step">
        {text}
      </p>
    </div>
  );
}

/**
 * A completed replay: the totals before and after side by side, whether they are identical, and
 * the read-model checksums when the replay recorded them (older replays did not).
 */
function ReplayResult({ result }: { result: ReplayResultAnswer }) {
  const { t } = useTranslation('adminAudit');
  const lang = useLang();
  const format = useNumberFormat();
  const identical = totalsEqual(result.before, result.after);
  const changed = changedTotals(result.before, result.after);
  return (
    <div className={styles.stack} data-testid="replay-result">
      <div className={styles.totals}>
        <TotalsCard heading={t('operations.replay.before')} totals={result.before} changed={changed} testId="replay-before" />
        <TotalsCard heading={t('operations.replay.after')} totals={result.after} changed={changed} testId="replay-after" />
      </div>
      {identical ? (
        <p className={styles.verdictSame} data-testid="replay-identical">
          {t('operations.replay.identical')}
        </p>
      ) : (
        <p className={styles.verdictDifferent} data-testid="replay-different">
          {t('operations.replay.different')}
        </p>
      )}
      <p className={styles.muted}>
        {t('operations.replay.summary', {
          events: format(result.events),
          position: result.position,
          startedAt: formatAuditTime(result.startedAt, lang),
          finishedAt: formatAuditTime(result.finishedAt, lang),
        })}
      </p>
      {result.checksums && <ChecksumTable checksums={result.checksums} />}
    </div>
  );
}

/**
 * Each read-model table compared before the swap: a one-line summary (all match, which differ,
 * which could not be compared), then per table the rebuilt and the live rows and checksum and the
 * verdict, a difference marked like a changed total.
 */
function ChecksumTable({ checksums }: { checksums: readonly ReplayChecksum[] }) {
  const { t } = useTranslation('adminAudit');
  const format = useNumberFormat();
  const headingId = useId();
  const captionId = useId();
  const summary = checksumSummary(checksums);
  const compared = summary.tables - summary.notCompared.length;
  const lines: { text: string; className: string | undefined }[] = [];
  if (summary.differing.length > 0) {
    lines.push({
      text: t('operations.replay.checksums.differ', { count: summary.differing.length, tables: summary.differing.join(', ') }),
      className: styles.verdictDifferent,
    });
  } else if (compared === 0) {
    lines.push({ text: t('operations.replay.checksums.noneCompared'), className: styles.muted });
  } else if (summary.notCompared.length === 0) {
    lines.push({ text: t('operations.replay.checksums.allMatch', { count: summary.tables }), className: styles.verdictSame });
  } else {
    lines.push({ text: t('operations.replay.checksums.comparedMatch', { count: summary.matching }), className: styles.verdictSame });
  }
  if (summary.notCompared.length > 0 && compared > 0) {
    lines.push({
      text: t('operations.replay.checksums.notCompared', { count: summary.notCompared.length, tables: summary.notCompared.join(', ') }),
      className: styles.muted,
    });
  }
  const missing = (
    <>
      <span aria-hidden="true">–</span>
      <span className="sr-only">{t('operations.replay.checksums.none')}</span>
    </>
  );
  return (
    <section className={styles.stack} aria-labelledby={headingId} data-testid="replay-checksums" data-differing={summary.differing.length}>
      <h3 id={headingId} className={styles.subheading}>
        {t('operations.replay.checksums.heading')}
      </h3>
      <p className={styles.muted}>{t('operations.replay.checksums.intro')}</p>
      <div data-testid="replay-checksums-summary">
        {lines.map((line) => (
          <p key={line.text} className={line.className}>
            {line.text}
          </p>
        ))}
      </div>
      <div className={tableStyles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={`${tableStyles.table} ${styles.checksumTable}`}>
          <caption id={captionId} className="sr-only">
            {t('operations.replay.checksums.heading')}
          </caption>
          <colgroup span={1} />
          <colgroup span={2} />
          <colgroup span={2} />
          <colgroup span={1} />
          <thead>
            <tr>
              <th scope="col" rowSpan={2} className={styles.checksumHeader}>
                {t('operations.replay.checksums.table')}
              </th>
              <th scope="colgroup" colSpan={2} className={`${styles.checksumHeader} ${tableStyles.alignCenter}`}>
                {t('operations.replay.checksums.rebuilt')}
              </th>
              <th scope="colgroup" colSpan={2} className={`${styles.checksumHeader} ${tableStyles.alignCenter}`}>
                {t('operations.replay.checksums.live')}
              </th>
              <th scope="col" rowSpan={2} className={styles.checksumHeader}>
                {t('operations.replay.checksums.verdict')}
              </th>
            </tr>
            <tr>
              {[0, 1].map((side) => (
                <Fragment key={side}>
                  <th scope="col" className={`${styles.checksumHeader} ${tableStyles.alignEnd}`}>
                    {t('operations.replay.checksums.rows')}
                  </th>
                  <th scope="col" className={styles.checksumHeader}>
                    {t('operations.replay.checksums.checksum')}
                  </th>
                </Fragment>
              ))}
            </tr>
          </thead>
          <tbody>
            {checksums.map((row, index) => {
              const verdict = checksumVerdict(row);
              const differs = checksumDifferences(row);
              const noColumns = liveColumnsDiffer(row);
              const mark = (changed: boolean) => (changed ? ` ${styles.changed}` : '');
              return (
                <tr key={row.table} className={index % 2 === 1 ? tableStyles.striped : undefined} data-testid="replay-checksum" data-table={row.table} data-verdict={verdict}>
                  <th scope="row" className={`${tableStyles.cell} ${tableStyles.rowHeader} ${styles.mono}`}>
                    {row.table}
                  </th>
                  <td className={`${tableStyles.cell} ${tableStyles.alignEnd} ${styles.nowrap}${mark(differs.rows)}`}>{format(row.rows)}</td>
                  <td className={`${tableStyles.cell} ${styles.mono}${mark(differs.checksum)}`}>{row.rebuilt}</td>
                  <td className={`${tableStyles.cell} ${tableStyles.alignEnd} ${styles.nowrap}${mark(differs.rows)}`}>
                    {row.liveRows === null || noColumns ? missing : format(row.liveRows)}
                  </td>
                  <td className={`${tableStyles.cell} ${styles.mono}${mark(differs.checksum)}`}>
                    {row.live === null ? missing : noColumns ? t('operations.replay.checksums.columnsDiffer') : row.live}
                  </td>
                  <td className={`${tableStyles.cell} ${styles.nowrap}${mark(verdict === 'differ')}`} data-testid="replay-checksum-verdict">
                    {t(`operations.replay.checksums.verdicts.${verdict}`)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

interface TotalsCardProps {
  heading: string;
  totals: ReplayTotals;
  /** Totals that differ between before and after: marked in both cards. */
  changed: readonly (typeof REPLAY_TOTALS)[number][];
  testId: string;
}

/** One side of the comparison: teams, participants, distance (km) and blue flowers. */
function TotalsCard({ heading, totals, changed, testId }: TotalsCardProps) {
  const { t } = useTranslation('adminAudit');
  const format = useNumberFormat();
  const headingId = useId();
  return (
    <section className={styles.totalsCard} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.subheading}>
        {heading}
      </h3>
      {/* The figures alone carry the test id: before and after read the same when identical. */}
      <dl data-testid={testId}>
        {REPLAY_TOTALS.map((field) => {
          const differs = changed.includes(field);
          return (
            <Fragment key={field}>
              <dt className={differs ? styles.changed : undefined}>{t(`operations.replay.totals.${field}`)}</dt>
              <dd className={differs ? styles.changed : undefined} data-testid={`${testId}-${field}`}>
                {format(totals[field], Number.isInteger(totals[field]) ? 0 : 2)}
                {differs && <span className="sr-only"> ({t('operations.replay.changed')})</span>}
              </dd>
            </Fragment>
          );
        })}
      </dl>
    </section>
  );
}
