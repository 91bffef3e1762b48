import type { HistoryActor } from '@sinilill/contracts';
import { useTranslation } from 'react-i18next';
import { useAccountEmail } from '../api/account-emails';
import { actorView } from '../utils/diff';

const ROLES = ['ADMIN', 'USER', 'SYSTEM'] as const;

/**
 * Who caused an event: the account's e-mail and role, "kasutaja@example.ee (kasutaja)" (the
 * user id in the tooltip; the id itself when the account is erased or unknown), "süsteem" for the importer and the
 * operators' tools, "—" for events recorded without an actor. An unknown role is shown as written.
 */
export function ActorText({ actor, testId }: { actor: HistoryActor; testId?: string }) {
  const { t } = useTranslation('adminAudit');
  const view = actorView(actor);
  const email = useAccountEmail(view.kind === 'user' ? view.userId : null);
  const role = (name: string) => {
    const known = ROLES.find((r) => r === name);
    return known ? t(`actor.roles.${known}`) : name;
  };
  let text: string;
  if (view.kind === 'none') text = t('actor.none');
  else if (view.kind === 'system') text = view.role === 'SYSTEM' ? t('actor.system') : role(view.role);
  else if (email) text = t('actor.userEmail', { email, role: role(view.role) });
  else text = t('actor.user', { userId: view.userId, role: role(view.role) });
  return (
    <span data-testid={testId} title={view.kind === 'user' ? view.userId : undefined}>
      {text}
    </span>
  );
}
