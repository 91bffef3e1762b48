import { Link } from '@tanstack/react-router';
import { useId, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../../components/ui/error-boundary';
import { Panel } from '../../../components/ui/panel';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ADMIN_TABS, toAdminTab, type AdminTab } from '../tabs';
import { AnnouncementsTab } from './announcements-tab';
import { DrawTab } from './draw-tab';
import { EditionsTab } from './editions-tab';
import { EntriesTab } from './entries-tab';
import { HistoryTab } from './history-tab';
import { OperationsTab } from './operations-tab';
import { ResetPasswordTab } from './reset-password-tab';
import { ReviewTab } from './review-tab';
import { TeamsTab } from './teams-tab';
import { UsersTab } from './users-tab';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './admin.module.css';

export interface AdminPageProps {
  /**
   * The route's `?tab=` as written: a tab's name opens it, none opens the first (users), and
   * anything else (a stale or mistyped link) says there is no such view, with a link to the first.
   */
  tab?: string;
  /** Called when the admin picks another tab (the route updates `?tab=`). */
  onTabChange?: (tab: AdminTab) => void;
}

const FIRST_TAB = ADMIN_TABS[0];

/** A stranger's `?tab=` as the message quotes it: at most 40 characters. */
function shorten(value: string): string {
  return value.length > 40 ? `${value.slice(0, 39)}…` : value;
}

const PANELS: Record<AdminTab, () => ReactElement> = {
  users: UsersTab,
  teams: TeamsTab,
  entries: EntriesTab,
  resetPassword: ResetPasswordTab,
  history: HistoryTab,
  operations: OperationsTab,
  announcements: AnnouncementsTab,
  review: ReviewTab,
  draw: DrawTab,
  editions: EditionsTab,
};

/**
 * /admin (spec §2 "Admin"): only for authenticated administrators; everyone else, logged in or
 * not, sees "This page is forbidden!" (spec §8). The server refuses every /api/admin call by a
 * non-admin with 403 whatever this page shows (docs/decisions/0008).
 *
 * The spec's four tabs (users, teams, entries, reset password) plus two more: the event
 * history (audit) and operations (switches, replay, queue board). Tabs follow the WAI-ARIA tabs
 * pattern: arrow keys move between them, only the open tab's panel is rendered. Each panel has its
 * own error boundary: a tab that fails to render shows a message with "try again" and a way
 * back, while the other tabs stay usable.
 */
export function AdminPage({ tab: requested, onTabChange }: AdminPageProps) {
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

  const known = requested === undefined ? FIRST_TAB : toAdminTab(requested);
  const tab: AdminTab = known ?? FIRST_TAB;

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
  const back =
    tab === FIRST_TAB ? (
      <Link to="/" className={formStyles.buttonSecondary} data-testid="admin-error-home">
        {t('failed.home')}
      </Link>
    ) : (
      <Link to="/admin" search={{ tab: FIRST_TAB }} className={formStyles.buttonSecondary} data-testid="admin-error-back">
        {t('failed.back', { tab: t(`tabs.${FIRST_TAB}`) })}
      </Link>
    );

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
            aria-selected={known !== undefined && name === tab}
            aria-controls={known !== undefined && name === tab ? `${baseId}-panel-${name}` : undefined}
            tabIndex={name === tab ? 0 : -1}
            className={styles.tab}
            data-testid={`admin-tab-${name}`}
            onClick={() => onTabChange?.(name)}
          >
            {t(`tabs.${name}`)}
          </button>
        ))}
      </div>
      {known === undefined ? (
        <div className={styles.panel} data-testid="admin-unknown-tab">
          <h2 className={styles.subheading}>{t('unknownTab.title')}</h2>
          <p>{t('unknownTab.text', { tab: shorten(requested ?? '') })}</p>
          <Link to="/admin" search={{ tab: FIRST_TAB }} className={formStyles.button} data-testid="admin-unknown-tab-back">
            {t('unknownTab.back', { tab: t(`tabs.${FIRST_TAB}`) })}
          </Link>
        </div>
      ) : (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${tab}`}
          aria-labelledby={`${baseId}-tab-${tab}`}
          className={styles.panel}
          data-testid={`admin-panel-${tab}`}
        >
          <ErrorBoundary key={tab} back={back} testId="admin-tab-error">
            <Open />
          </ErrorBoundary>
        </div>
      )}
    </section>
  );
}
