import type { FlagReason, ModerationRule, ReviewQueueAnswer, ReviewQueueQuery, ReviewStatus } from '@sinilill/contracts';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../components/ui/data-table/data-table.module.css';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SelectField, TextField } from '../../../components/ui/form/field';
import formStyles from '../../../components/ui/form/form.module.css';
import { entryTypeLabel } from '../../../lib/entry-type';
import { formatDate, formatDateTime } from '../../../lib/format-date';
import { formatDistance } from '../../../lib/format-number';
import { useAction } from '../../../lib/use-action';
import { useLang } from '../../../lib/use-lang';
import { decideReview, getReviewQueue } from '../api/review';
import styles from './review.module.css';

const STATUSES: readonly ReviewStatus[] = ['flagged', 'approved', 'rejected'];
const RULES: readonly ModerationRule[] = ['MAX_KM_PER_ENTRY', 'MAX_KM_PER_DAY', 'DUPLICATE', 'TEAM_DAY_OUTLIER'];

/** A flag's reason in words (the limit and value in km). */
export function useReasonText(): (reason: FlagReason) => string {
  const { t } = useTranslation('admin');
  const lang = useLang();
  return (reason) => t(`review.reasons.${reason.rule}`, {
    limit: reason.limit === null ? '' : formatDistance(reason.limit, lang),
    value: formatDistance(reason.value, lang),
    other: reason.duplicateOf ?? '',
  });
}

/**
 * The review tab: entries flagged by the edition's moderation rules, newest
 * flag first, 50 a page from the server; filters by status (awaiting by default), rule, team id
 * and performed-at date. The administrator ticks one or more entries, writes a note (optional)
 * and approves or rejects them in one decision; the queue is then read again from the decision's
 * position. A rejected entry leaves the totals. The server refuses anyone but an administrator.
 */
export function ReviewTab() {
  const { t } = useTranslation('admin');
  const { t: tTeam } = useTranslation('team');
  const lang = useLang();
  const reasonText = useReasonText();
  const noteId = useId();
  const [filters, setFilters] = useState<ReviewQueueQuery>({ status: 'flagged' });
  const [page, setPage] = useState<ReviewQueueAnswer | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [note, setNote] = useState('');
  const [done, setDone] = useState<{ decision: 'approve' | 'reject'; count: number } | null>(null);
  const decide = useAction(decideReview);

  const load = useCallback(async (query: ReviewQueueQuery, minPosition?: number) => {
    try {
      setPage(await getReviewQueue(query, minPosition ? { minPosition } : {}));
      setLoadError(false);
    } catch {
      setLoadError(true);
    }
  }, []);
  useEffect(() => {
    setSelected(new Set());
    void load(filters);
  }, [filters, load]);

  const setFilter = (field: keyof ReviewQueueQuery) => (value: string) =>
    setFilters((f) => ({ ...f, [field]: value === '' ? undefined : value, page: undefined }));
  const toggle = (id: number) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const rows = page?.rows ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.entry_id));
  const awaiting = (filters.status ?? 'flagged') === 'flagged';

  async function run(decision: 'approve' | 'reject', ids: readonly number[] = [...selected]) {
    if (ids.length === 0 || decide.pending) return;
    const outcome = await decide.run({ ids: [...ids], decision, note });
    if (!outcome.ok) return;
    setDone({ decision, count: outcome.result.count });
    setSelected(new Set());
    setNote('');
    await load(filters, outcome.result.position);
  }

  return (
    <div data-testid="review">
      <h2>{t('review.heading')}</h2>
      <p>{t('review.intro')}</p>
      <div className={formStyles.form} role="group" aria-label={t('review.filters')}>
        <SelectField name="status" label={t('review.status')} value={filters.status ?? ''} onChange={setFilter('status')}
          placeholder={t('review.any')} options={STATUSES.map((s) => ({ value: s, label: t(`review.statuses.${s}`) }))}
          selectProps={{ 'data-testid': 'review-filter-status' }} />
        <SelectField name="rule" label={t('review.rule')} value={filters.rule ?? ''} onChange={setFilter('rule')}
          placeholder={t('review.any')} options={RULES.map((r) => ({ value: r, label: t(`review.rules.${r}`) }))}
          selectProps={{ 'data-testid': 'review-filter-rule' }} />
        <TextField name="team_id" label={t('review.teamId')} value={filters.team_id ?? ''} onChange={setFilter('team_id')}
          inputProps={{ 'data-testid': 'review-filter-team' }} />
        <TextField name="date" label={t('review.date')} hint={t('review.dateHint')} value={filters.date ?? ''} onChange={setFilter('date')}
          inputProps={{ 'data-testid': 'review-filter-date' }} />
      </div>
      {loadError && <ErrorAlert code="GENERIC_ERROR" />}
      {done && <Alert variant="success">{t(done.decision === 'approve' ? 'review.approved' : 'review.rejected', { count: done.count })}</Alert>}
      {decide.state.status === 'error' && <ErrorAlert code={decide.state.code} />}
      <p aria-live="polite" data-testid="review-total">{t('review.total', { count: page?.total ?? 0 })}</p>
      {rows.length > 0 && (
        <div className={tableStyles.scroller}>
          <table className={`${tableStyles.table} ${styles.cards}`} data-testid="review-table">
            <caption className="sr-only">{t('review.caption')}</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.headerCell}>
                  {awaiting && (
                    <input type="checkbox" checked={allSelected} aria-label={t('review.selectAll')}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.entry_id)))} />
                  )}
                </th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.member')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.team')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.distance')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.type')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.performedAt')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.reasonsHeader')}</th>
                <th scope="col" className={tableStyles.headerCell}>{t('review.decision')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.entry_id} data-testid={`review-row-${r.entry_id}`}>
                  <td className={`${tableStyles.cell} ${styles.select}`}>
                    {awaiting && (
                      <input type="checkbox" checked={selected.has(r.entry_id)} onChange={() => toggle(r.entry_id)}
                        aria-label={t('review.select', { member: r.full_name ?? '—', distance: formatDistance(r.distance, lang), date: formatDate(r.performed_at, lang) })}
                        data-testid={`review-select-${r.entry_id}`} />
                    )}
                  </td>
                  <td className={`${tableStyles.cell} ${styles.name}`}>{r.full_name ?? '—'}</td>
                  <td className={`${tableStyles.cell} ${styles.wide}`} data-label={t('review.team')}>{r.team_name ?? `#${r.team_id}`}</td>
                  <td className={tableStyles.cell} data-label={t('review.distance')}>{formatDistance(r.distance, lang)}</td>
                  <td className={tableStyles.cell} data-label={t('review.type')}>{entryTypeLabel(r.entry_type, (type) => tTeam(`entryTypes.${type}`))}</td>
                  <td className={tableStyles.cell} data-label={t('review.performedAt')}>{formatDate(r.performed_at, lang)}</td>
                  <td className={`${tableStyles.cell} ${styles.wide} ${styles.reason}`} data-label={t('review.reasonsHeader')} data-testid={`review-reasons-${r.entry_id}`}>
                    {r.reasons.map(reasonText).join('; ')}
                  </td>
                  <td className={`${tableStyles.cell} ${styles.wide}`} data-label={t('review.decision')}>
                    {t(`review.statuses.${r.status}`)}
                    {r.decided_at && ` · ${formatDateTime(r.decided_at, lang)}`}
                    {r.note && ` · ${r.note}`}
                    {r.status === 'flagged' && (
                      <span className={styles.rowActions}>
                        <button type="button" className={formStyles.buttonSecondary} aria-disabled={decide.pending}
                          aria-label={t('review.approveOne', { member: r.full_name ?? '—', distance: formatDistance(r.distance, lang) })}
                          onClick={() => void run('approve', [r.entry_id])} data-testid={`review-approve-${r.entry_id}`}>{t('review.approveShort')}</button>
                        <button type="button" className={`${formStyles.buttonSecondary} ${formStyles.dangerButton}`} aria-disabled={decide.pending}
                          aria-label={t('review.rejectOne', { member: r.full_name ?? '—', distance: formatDistance(r.distance, lang) })}
                          onClick={() => void run('reject', [r.entry_id])} data-testid={`review-reject-${r.entry_id}`}>{t('review.rejectShort')}</button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && page.total > page.pageSize && (
        <p>
          <button type="button" className={formStyles.buttonSecondary} disabled={page.page <= 1}
            onClick={() => setFilters((f) => ({ ...f, page: String(page.page - 1) }))}>{t('review.previous')}</button>{' '}
          <button type="button" className={formStyles.buttonSecondary} disabled={page.page * page.pageSize >= page.total}
            onClick={() => setFilters((f) => ({ ...f, page: String(page.page + 1) }))}>{t('review.next')}</button>
        </p>
      )}
      {awaiting && rows.length > 0 && (
        <div className={formStyles.form}>
          <div className={formStyles.field}>
            <label htmlFor={noteId} className={formStyles.label}>{t('review.note')}</label>
            <textarea id={noteId} className={formStyles.input} rows={3} maxLength={500} value={note}
              onChange={(e) => setNote(e.target.value)} data-testid="review-note" />
          </div>
          <p>
            <button type="button" className={formStyles.button} aria-disabled={selected.size === 0 || decide.pending}
              onClick={() => void run('approve')} data-testid="review-approve">{t('review.approve', { count: selected.size })}</button>{' '}
            <button type="button" className={`${formStyles.buttonSecondary} ${formStyles.dangerButton}`} aria-disabled={selected.size === 0 || decide.pending}
              onClick={() => void run('reject')} data-testid="review-reject">{t('review.reject', { count: selected.size })}</button>
          </p>
        </div>
      )}
    </div>
  );
}
