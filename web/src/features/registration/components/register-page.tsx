import { useTranslation } from 'react-i18next';
import { Panel, panelStyles } from '../../../components/ui/panel';
import { selectRegistrationEnabled, useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RegistrationWizard } from './registration-wizard';

/**
 * /register (spec §2): the wizard while the global registration switch is on. While the switch
 * is unknown or off nothing is rendered (spec: "otherwise nothing is rendered"); the empty
 * element only tells browser tests that the page decided.
 */
export function RegisterPage() {
  const { t } = useTranslation('registration');
  useDocumentTitle(t('title'));
  const settings = useSettings();
  const { status } = settings;
  const enabled = selectRegistrationEnabled(settings);

  if (!enabled) return status === 'ready' || status === 'error' ? <div data-testid="register-closed" /> : null;
  return (
    <Panel heading={t('title')} headingId="register-heading" wide testId="register-page">
      <p className={panelStyles.lead}>{t('intro')}</p>
      <RegistrationWizard />
    </Panel>
  );
}
