import { useId, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../components/ui/panel';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ADMIN_TABS, type AdminTab } from '../tabs';
import { EntriesTab } from './entries-tab';
import { HistoryTab } from './history-tab';
import { OperationsTab } from './operations-tab';
import { ResetPasswordTab } from './reset-password-tab';
import { TeamsTab } from './teams-tab';
import { UsersTab } from './users-tab';
import styles from './admin.module.css';

export interface AdminPageProps {
  /** The open tab (the route's `?tab=`); users when absent. */
  tab?: AdminTab;
  /** Called when the admin picks another tab (the route updates `?tab=`). */
  onTabChange?: (tab: AdminTab) => void;
}

const PANELS: Record<AdminTab, () => ReactElement> = {
  users: UsersTab,
  teams: TeamsTab,
  entries: EntriesTab,
  resetPassword: ResetPasswordTab,
  history: HistoryTab,
  operations: OperationsTab,
};

/**
 * /admin (spec §2 "Admin"): only for authenticated administrators; everyone else, logged in or
 * not, sees "This page is forbidden!" (spec §8). The server refuses every /api/admin call by a
 * non-admin with 403 whatever this page shows (docs/architecture.md D8).
 *
 * The spec's four tabs (users, teams, entries, reset password) plus issue 6's two: the event
 * history (audit) and operations (switches, replay, queue board). Tabs follow the WAI-ARIA tabs
 * pattern: arrow keys move between them, only the open tab's panel is rendered.
 */
export function AdminPage({ tab = 'users', onTabChange }: AdminPageProps) {
  const { t } = useTranslation('admin');
  const isAdmin = useSessionStore((s) => s.isAuthenticated && s.identity.isAdmin);
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<AdminTab, HTMLButtonElement | null>>>({});
  useDocumentTitle(t('title'));
  if (!isAdmin) {
    return (
      <Panel heading={t('forbidden.title')} headingId="admin-forbidden-heading" testId="admin-forbidden">
        <p>{t('forbidden.text')}</p>
      </Panel>
    );
  }

  const select = (next: AdminTab) => {
    onTabChange?.(next);
    tabRefs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = ADMIN_TABS.indexOf(tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (event.key === 'Home') select(ADMIN_TABS[0]!);
    else if (event.key === 'End') select(ADMIN_TABS[ADMIN_TABS.length - 1]!);
    else if (step !== 0) select(ADMIN_TABS[(index + step + ADMIN_TABS.length) % ADMIN_TABS.length]!);
    else return;
    event.preventDefault();
  };
  const Open = PANELS[tab];

  return (
    <section className={styles.console} aria-labelledby="admin-heading" data-testid="admin-console">
      <h1 id="admin-heading" className={styles.heading}>
        {t('title')}
      </h1>
      <div role="tablist" aria-label={t('tabs.label')} className={styles.tabs} onKeyDown={onKeyDown}>
        {ADMIN_TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${name}`}
            aria-selected={name === tab}
            aria-controls={`${baseId}-panel-${name}`}
            tabIndex={name === tab ? 0 : -1}
            className={styles.tab}
            data-testid={`admin-tab-${name}`}
            onClick={() => onTabChange?.(name)}
          >
            {t(`tabs.${name}`)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel-${tab}`}
        aria-labelledby={`${baseId}-tab-${tab}`}
        className={styles.panel}
        data-testid={`admin-panel-${tab}`}
      >
        <Open />
      </div>
    </section>
  );
}
