import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../../components/ui/dialog/modal-dialog';
import { ErrorAlert } from '../../../../components/ui/form/alert';
import { TrashIcon } from '../../../../components/ui/icons';
import { useAction } from '../../../../lib/use-action';
import { deleteEntities, type AdminEntity } from '../../api/admin-commands';
import formStyles from '../../../../components/ui/form/form.module.css';
import styles from './console.module.css';

/** The locale key of each entity kind's texts (delete.users …). */
const ENTITY_TEXT = { user: 'users', team: 'teams', entry: 'entries' } as const satisfies Record<AdminEntity, string>;

export interface DeleteSelectedProps {
  entity: AdminEntity;
  /** What will be deleted: the selected rows still listed (user UUIDs, team or entry numbers). */
  ids: readonly (string | number)[];
  /** How many rows are selected (the button's count); default `ids.length`. */
  selectedCount?: number;
  /** Why some selected rows are left out (e.g. the administrator's own account), shown in the dialog. */
  keptNote?: string | null;
  /** The confirmation opens. */
  onOpen?: () => void;
  /**
   * Unselects every row: with it, a "Clear selection" button shows while rows are selected (the
   * selection is kept across pages, so some selected rows may be out of sight).
   */
  onClearSelection?: () => void;
  /** The server deleted `count` (spec §2: the alert appends it); refresh from `position`. */
  onDeleted: (count: number, position: number) => void;
}

/**
 * "Delete selected (n)" and its confirmation (spec §2 "multi-select delete with confirm modal";
 * "Deletion is permanent, with a warning"): the dialog names how many go and warns that it cannot
 * be undone; Cancel has the focus. A refusal shows in the dialog in a red alert. Test ids:
 * `admin-delete-selected`, `admin-confirm-delete`, `admin-confirm-delete-yes`, `admin-clear-selection`.
 */
export function DeleteSelected({ entity, ids, selectedCount = ids.length, keptNote, onOpen, onClearSelection, onDeleted }: DeleteSelectedProps) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const action = useAction(deleteEntities);
  const count = ids.length;
  const kind = ENTITY_TEXT[entity];

  const close = () => {
    if (!action.pending) setOpen(false);
  };

  async function confirm() {
    const outcome = await action.run(entity, ids);
    if (!outcome.ok) return;
    setOpen(false);
    onDeleted(outcome.result.count, outcome.result.position);
  }

  return (
    <>
      <button
        type="button"
        className={`${formStyles.buttonSecondary} ${formStyles.dangerButton}`}
        onClick={() => {
          action.reset();
          onOpen?.();
          setOpen(true);
        }}
        disabled={selectedCount === 0 || action.pending}
        data-testid="admin-delete-selected"
      >
        <TrashIcon size={18} />
        {t('delete.button', { count: selectedCount })}
      </button>
      {onClearSelection && selectedCount > 0 && (
        <button type="button" className={formStyles.buttonSecondary} onClick={onClearSelection} disabled={action.pending} data-testid="admin-clear-selection">
          {t('delete.clearSelection')}
        </button>
      )}
      <ModalDialog open={open} onClose={close} title={t('delete.title')} testId="admin-confirm-delete">
        <div className={styles.dialogBody}>
          <div className={styles.warning}>
            <p>{t('delete.permanent')}</p>
            {count > 0 && <p>{t(`delete.${kind}`, { count })}</p>}
            {keptNote && <p>{keptNote}</p>}
          </div>
          {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
          <div className={`${formStyles.actions} ${styles.dialogActions}`}>
            <button type="button" className={formStyles.buttonSecondary} onClick={close} disabled={action.pending} data-autofocus>
              {t('console.cancel')}
            </button>
            <button
              type="button"
              className={`${formStyles.button} ${styles.dangerSolid}`}
              onClick={() => void confirm()}
              disabled={count === 0 || action.pending}
              aria-busy={action.pending}
              data-testid="admin-confirm-delete-yes"
            >
              <TrashIcon size={18} />
              {action.pending ? t('delete.deleting') : t('delete.confirm', { count })}
            </button>
          </div>
        </div>
      </ModalDialog>
    </>
  );
}
