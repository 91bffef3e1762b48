import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import tableStyles from '../../../components/ui/data-table/data-table.module.css';
import { ConfirmDialog } from '../../../components/ui/dialog/confirm-dialog';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { errorCodeOf } from '../../../lib/api-client';
import { formatDay } from '../../../lib/format-date';
import { useLang } from '../../../lib/use-lang';
import { closeEdition, editionErrorOf, listAdminEditions, openEdition, type EditionView } from '../api/editions';
import { draftFromEdition, nextEditionDraft, withView, type EditionDraft } from '../utils/edition-form';
import { EditionEditor, editionName } from './edition-editor';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './editions.module.css';

/** The cache key of GET /api/admin/editions. */
export const ADMIN_EDITIONS_KEY = ['admin', 'editions'] as const;

type Editing = { mode: 'new' | 'edit' | 'view'; draft: EditionDraft; key: number } | null;
type Confirming = { action: 'open' | 'close'; view: EditionView } | null;

/**
 * The editions tab (`?tab=editions`): every edition, drafts included (GET /api/admin/editions),
 * with its status, phase and dates; "Plan next edition" starts the form from the latest edition
 * (the year after, dates moved a year); a planned or opened edition can be changed, a planned one
 * opened (announced to everyone), an opened one closed once its late-entry deadline has passed
 * (archived, read-only); a closed one is shown read-only. Opening and closing ask first. The
 * server enforces all of it (ADMIN only; EDITION_CLOSED, EDITION_NOT_FINISHED …). Test ids:
 * admin-editions, edition-row (data-year), edition-plan-next, edition-edit, edition-view,
 * edition-open, edition-close, edition-saved.
 */
export function EditionsTab() {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const client = useQueryClient();
  const listed = useQuery({ queryKey: ADMIN_EDITIONS_KEY, queryFn: ({ signal }) => listAdminEditions(signal) });
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [acting, setActing] = useState<{ pending: boolean; code: string | null }>({ pending: false, code: null });
  const [notice, setNotice] = useState<string | null>(null);
  const editions = listed.data ?? [];
  const latest = editions.length > 0 ? editions[editions.length - 1]! : null;

  // The command's answer is the edition as the log now has it; the list's read model may not have
  // caught up yet, so the answer goes into the list.
  const remember = (view: EditionView) => client.setQueryData<EditionView[]>(ADMIN_EDITIONS_KEY, (list) => withView(list ?? [], view));
  const start = (mode: 'new' | 'edit' | 'view', draft: EditionDraft) => {
    setNotice(null);
    setEditing({ mode, draft, key: Date.now() });
  };
  const confirm = async () => {
    if (!confirming || acting.pending) return;
    setActing({ pending: true, code: null });
    try {
      const { year } = confirming.view;
      const view = await (confirming.action === 'open' ? openEdition(year) : closeEdition(year));
      setConfirming(null);
      setActing({ pending: false, code: null });
      setNotice(t(confirming.action === 'open' ? 'editions.opened' : 'editions.closed', { name: editionName(view.edition, lang) }));
      remember(view);
    } catch (error) {
      setActing({ pending: false, code: editionErrorOf(error).code });
    }
  };

  const statusText = (view: EditionView) => t(`editions.status.${view.status}`);
  const phaseText = (view: EditionView) => t(`editions.phase.${view.phase}`);

  return (
    <div data-testid="admin-editions">
      <h2>{t('editions.heading')}</h2>
      <p>{t('editions.intro')}</p>
      {listed.status === 'error' && <ErrorAlert code={errorCodeOf(listed.error)} />}
      {listed.status === 'pending' && <p>{t('editions.loading')}</p>}
      {notice && <Alert variant="success"><span data-testid="edition-saved">{notice}</span></Alert>}
      {listed.status === 'success' && (
        <div className={tableStyles.scroller} role="region" aria-label={t('editions.heading')} tabIndex={0}>
          <table className={tableStyles.table} data-testid="edition-list">
            <caption className="sr-only">{t('editions.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('editions.columns.year')}</th>
                <th scope="col">{t('editions.columns.name')}</th>
                <th scope="col">{t('editions.columns.status')}</th>
                <th scope="col">{t('editions.columns.phase')}</th>
                <th scope="col">{t('editions.columns.registration')}</th>
                <th scope="col">{t('editions.columns.dates')}</th>
                <th scope="col">{t('editions.columns.lateEntries')}</th>
                <th scope="col">{t('editions.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {editions.map((view) => {
                const e = view.edition;
                return (
                  <tr key={view.year} data-testid="edition-row" data-year={view.year} data-status={view.status} data-phase={view.phase}>
                    <th scope="row">{view.year}</th>
                    <td>{editionName(e, lang)}</td>
                    <td className={styles.status}>{statusText(view)}</td>
                    <td>{phaseText(view)}</td>
                    <td>{formatDay(e.registrationOpens, lang)}</td>
                    <td>{formatDay(e.startDate, lang)} – {formatDay(e.endDate, lang)}</td>
                    <td>{formatDay(e.lateEntriesUntil, lang)}</td>
                    <td>
                      <div className={styles.listActions}>
                        {view.status === 'closed' ? (
                          <button type="button" className={formStyles.buttonSecondary} data-testid="edition-view"
                            onClick={() => start('view', draftFromEdition(e, lang))}>{t('editions.view')}</button>
                        ) : (
                          <button type="button" className={formStyles.buttonSecondary} data-testid="edition-edit"
                            onClick={() => start('edit', draftFromEdition(e, lang))}>{t('editions.edit')}</button>
                        )}
                        {view.status === 'planned' && (
                          <button type="button" className={formStyles.button} data-testid="edition-open"
                            onClick={() => { setActing({ pending: false, code: null }); setConfirming({ action: 'open', view }); }}>{t('editions.open')}</button>
                        )}
                        {view.status === 'opened' && (
                          <button type="button" className={formStyles.dangerButton} data-testid="edition-close"
                            aria-disabled={view.phase !== 'final'}
                            title={view.phase !== 'final' ? t('editions.closeAfter', { date: formatDay(e.lateEntriesUntil, lang) }) : undefined}
                            onClick={() => {
                              if (view.phase !== 'final') return;
                              setActing({ pending: false, code: null });
                              setConfirming({ action: 'close', view });
                            }}>{t('editions.close')}</button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {listed.status === 'success' && editing === null && (
        <div className={formStyles.actions}>
          <button type="button" className={formStyles.button} data-testid="edition-plan-next"
            onClick={() => start('new', latest ? nextEditionDraft(latest.edition, lang) : draftFromEdition({}, lang))}>
            {latest ? t('editions.planNext', { year: latest.year + 1 }) : t('editions.plan')}
          </button>
        </div>
      )}
      {editing && (
        <EditionEditor
          key={editing.key}
          mode={editing.mode}
          initial={editing.draft}
          onCancel={() => setEditing(null)}
          onSaved={(view) => {
            setEditing(null);
            setNotice(t('editions.saved', { name: editionName(view.edition, lang) }));
            remember(view);
          }}
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
        title={confirming ? t(`editions.confirm.${confirming.action}Title`, { name: editionName(confirming.view.edition, lang) }) : ''}
        confirmLabel={confirming ? t(`editions.${confirming.action}`) : ''}
        cancelLabel={t('editions.cancel')}
        pending={acting.pending}
        pendingLabel={t('editions.acting')}
        errorCode={acting.code}
        danger={confirming?.action === 'close'}
        testId="edition-confirm"
      >
        <p>{confirming ? t(`editions.confirm.${confirming.action}Body`, { date: formatDay(confirming.view.edition.registrationOpens, lang) }) : null}</p>
      </ConfirmDialog>
    </div>
  );
}
