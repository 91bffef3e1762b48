import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import formStyles from '../../../components/ui/form/form.module.css';

/** A read of the pay page failed: its catalogue message in a red alert and a try-again button. */
export function LoadFailed({ code, onRetry, testId }: { code: string; onRetry: () => void; testId?: string }) {
  const { t } = useTranslation('pay');
  return (
    <div className={formStyles.form}>
      <ErrorAlert code={code} />
      <div className={formStyles.actions}>
        <button type="button" className={formStyles.buttonSecondary} onClick={onRetry} data-testid={testId}>
          {t('retry')}
        </button>
      </div>
    </div>
  );
}
