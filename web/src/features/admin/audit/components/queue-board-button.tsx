import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../../components/ui/form/alert';
import formStyles from '../../../../components/ui/form/form.module.css';
import { useAction } from '../../../../lib/use-action';
import { openQueueBoardSession, QUEUE_BOARD_PATH } from '../api/operations';
import { AuditSection } from './audit-section';

/**
 * "Open the queue dashboard" (Bull Board, for admins only). A new tab cannot send the
 * admin's token, so POST /api/admin/queues/session first sets an HttpOnly cookie for the board's
 * path; then the tab goes to /api/admin/queues. The tab is opened at the click, before the call,
 * because browsers block a window opened later from a promise; it is closed again on failure.
 */
export function QueueBoardButton() {
  const { t } = useTranslation('adminAudit');
  const session = useAction(openQueueBoardSession);
  const [blocked, setBlocked] = useState(false);

  const open = async () => {
    if (session.pending) return;
    const tab = window.open('', '_blank');
    setBlocked(tab === null);
    if (tab === null) {
      session.reset();
      return;
    }
    const outcome = await session.run();
    if (outcome.ok) {
      // The board needs no link back to this page.
      tab.opener = null;
      tab.location.href = QUEUE_BOARD_PATH;
    } else {
      tab.close();
    }
  };

  return (
    <AuditSection level={2} heading={t('operations.queues.heading')} intro={t('operations.queues.intro')} testId="queue-board">
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.buttonSecondary} aria-busy={session.pending} onClick={() => void open()} data-testid="queue-board-open">
          {session.pending ? t('operations.queues.opening') : t('operations.queues.open')}
        </button>
      </div>
      {blocked && <Alert variant="error">{t('operations.queues.popupBlocked')}</Alert>}
      {session.state.status === 'error' && <ErrorAlert code={session.state.code} />}
    </AuditSection>
  );
}
