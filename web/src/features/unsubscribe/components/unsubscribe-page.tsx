import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { SubmitButton } from '../../../components/ui/form/submit-button';
import formStyles from '../../../components/ui/form/form.module.css';
import { Panel } from '../../../components/ui/panel';
import { useAction } from '../../../lib/use-action';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { unsubscribe } from '../api/unsubscribe';

export interface UnsubscribePageProps {
  /** The mailed link's token: /unsubscribe/{token}. */
  token: string;
}

/**
 * /unsubscribe/{token}: the link every announcement mail carries. Public, no
 * login. It asks for a confirming press (so that a mail scanner opening the link unsubscribes
 * nobody), then says it is done; a forged link, or one of an erased person, shows
 * INVALID_UNSUBSCRIBE_LINK's message.
 */
export function UnsubscribePage({ token }: UnsubscribePageProps) {
  const { t } = useTranslation('unsubscribe');
  useDocumentTitle(t('title'));
  const action = useAction(unsubscribe);

  if (action.state.status === 'success') {
    return (
      <Panel heading={t('title')} headingId="unsubscribe-heading" testId="unsubscribe-done">
        <Alert variant="success">{t('done')}</Alert>
        <p className={formStyles.actions}>
          <Link to="/" className={formStyles.buttonSecondary}>
            {t('home')}
          </Link>
        </p>
      </Panel>
    );
  }

  return (
    <Panel heading={t('title')} headingId="unsubscribe-heading" testId="unsubscribe-page">
      <div className={formStyles.form}>
        {action.state.status === 'error' && <ErrorAlert code={action.state.code} />}
        <p>{t('intro')}</p>
        <div className={formStyles.actions}>
          <SubmitButton type="button" pending={action.pending} onClick={() => void action.run(token)} testId="unsubscribe-submit">
            {t('submit')}
          </SubmitButton>
        </div>
      </div>
    </Panel>
  );
}
