import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../../components/ui/form/alert';
import type { CatalogueCode } from '../../../../lib/errors/catalogue';
import formStyles from '../../../../components/ui/form/form.module.css';
import styles from './console.module.css';

/**
 * Why a tab's list is not (or no longer) up to date: the catalogue text of the read's failure in a
 * red alert (spec §8), with a retry button. Renders nothing without an error.
 */
export function ListError({ code, onRetry }: { code: CatalogueCode | null; onRetry: () => void }) {
  const { t } = useTranslation('admin');
  if (code === null) return null;
  return (
    <div className={styles.status}>
      <ErrorAlert code={code} />
      <button type="button" className={formStyles.buttonSecondary} onClick={onRetry} data-testid="admin-retry">
        {t('console.retry')}
      </button>
    </div>
  );
}
