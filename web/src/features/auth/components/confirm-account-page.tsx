import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel } from '../../../components/ui/panel';
import { useAction } from '../../../lib/use-action';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { confirmAccount } from '../api/confirm-account';

export interface ConfirmAccountPageProps {
  /** The mailed link's token and id: /confirm/account/{token}/{id}. */
  token: string;
  id: string;
  /** `?type=success`: the account was confirmed. */
  success: boolean;
}

/**
 * /confirm/account/{token}/{id} (spec §2): a confirm button; success (also `?type=success`)
 * shows a message and a login link; a bad or used link shows INVALID_ACCOUNT_TOKEN's message.
 * Confirming waits for the button, so that a mail scanner opening the link confirms nothing.
 */
export function ConfirmAccountPage({ token, id, success }: ConfirmAccountPageProps) {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('confirm.title'));
  const navigate = useNavigate();
  const action = useAction(confirmAccount);

  const onConfirm = async () => {
    const outcome = await action.run({ token, id });
    if (outcome.ok) void navigate({ to: '/confirm/account/$token/$id', params: { token, id }, search: { type: 'success' }, replace: true });
  };

  if (success) {
    return (
      <Panel heading={t('confirm.title')} headingId="confirm-heading" testId="confirm-success">
        <Alert variant="success">{t('confirm.success')}</Alert>
        <p className={formStyles.actions}>
          <Link to="/login" className={formStyles.button}>
            {t('confirm.logIn')}
          </Link>
        </p>
      </Panel>
    );
  }

  return (
    <Panel heading={t('confirm.title')} headingId="confirm-heading" testId="confirm-page">
      <div className={formStyles.form}>
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        <p>{t('confirm.intro')}</p>
        <div className={formStyles.actions}>
          <SubmitButton type="button" pending={action.pending} onClick={() => void onConfirm()} testId="confirm-submit">
            {t('confirm.submit')}
          </SubmitButton>
          {/* The link may have been used already: the account is then confirmed. */}
          {action.state.status === 'error' && action.state.code === 'INVALID_ACCOUNT_TOKEN' && (
            <Link to="/login" className={formStyles.buttonSecondary}>
              {t('confirm.logIn')}
            </Link>
          )}
        </div>
      </div>
    </Panel>
  );
}
