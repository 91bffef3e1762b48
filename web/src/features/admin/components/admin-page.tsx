import { useTranslation } from 'react-i18next';
import { Panel } from '../../../components/ui/panel';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';

/**
 * /admin (spec §2 "Admin"): only for authenticated administrators; everyone else, logged in or
 * not, sees "This page is forbidden!" (spec §8). The server refuses every /api/admin call by a
 * non-admin with 403 whatever this page shows (docs/architecture.md D8).
 */
export function AdminPage() {
  const { t } = useTranslation('admin');
  const isAdmin = useSessionStore((s) => s.isAuthenticated && s.identity.isAdmin);
  useDocumentTitle(t('title'));
  if (!isAdmin) {
    return (
      <Panel heading={t('forbidden.title')} headingId="admin-forbidden-heading" testId="admin-forbidden">
        <p>{t('forbidden.text')}</p>
      </Panel>
    );
  }
  return (
    <Panel heading={t('title')} headingId="admin-heading" wide testId="admin-console">
      <p>{t('console.intro')}</p>
    </Panel>
  );
}
