import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel, panelStyles } from '../../../components/ui/panel';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ChangePasswordForm } from './change-password-form';
import { AccountErased } from './account-erased';
import { MyDataSection } from './my-data-section';
import { useErasureStore } from '../stores/erasure-store';
import { JoinEdition } from './join-edition';
import { MyContributions } from './my-contributions';
import { StravaSection, type StravaReturn } from './strava-section';

export interface AccountPageProps {
  /** `?strava=`: how the participant came back from Strava's authorize page, if they just did. */
  stravaReturn?: StravaReturn;
  /** Called once the return is taken in: the route drops `?strava=` from the address. */
  onStravaReturnSeen?: () => void;
}

/**
 * /account (spec §2 "Account"): login needed; greets by full name; a returning participant's way
 * into the edition taking registrations; the change-password form; the Strava link (participants).
 */
export function AccountPage({ stravaReturn, onStravaReturnSeen }: AccountPageProps = {}) {
  const { t } = useTranslation('account');
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const fullName = useSessionStore((s) => s.identity.fullName);
  const participantId = useSessionStore((s) => s.identity.participantId);
  useDocumentTitle(t('title'));
  const erased = useErasureStore((s) => s.erased);
  // Kept after the address loses `?strava=`, so that a reload does not say it again.
  const [stravaReturned] = useState(stravaReturn);
  useEffect(() => {
    if (stravaReturn) onStravaReturnSeen?.();
  }, [stravaReturn, onStravaReturnSeen]);
  if (!isAuthenticated) return erased ? <AccountErased /> : <LoginRequired />;
  return (
    <Panel heading={t('title')} headingId="account-heading" testId="account-page">
      <p className={panelStyles.lead} data-testid="account-greeting">
        {t('greeting', { name: fullName })}
      </p>
      <JoinEdition />
      <ChangePasswordForm />
      {participantId !== null && <StravaSection {...(stravaReturned ? { returned: stravaReturned } : {})} />}
      {participantId !== null && <MyContributions participantId={participantId} />}
      <MyDataSection />
    </Panel>
  );
}
