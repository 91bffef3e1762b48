import { useTranslation } from 'react-i18next';
import formStyles from '../../../components/ui/form/form.module.css';
import type { PlaceOrder } from '../api/use-place-order';

/**
 * The submit button of an order form: waits (disabled) while the order is sent and while the
 * browser leaves for the provider's checkout, and says so.
 */
export function OrderButton({ order, label, testId }: { order: PlaceOrder; label: string; testId: string }) {
  const { t } = useTranslation('pay');
  const text = order.redirecting ? t('redirecting') : order.busy ? t('form.sending', { ns: 'common' }) : label;
  return (
    <div className={formStyles.actions}>
      <button type="submit" className={formStyles.button} disabled={order.busy} data-testid={testId}>
        {text}
      </button>
    </div>
  );
}
