import type { TeamAnswer } from '@sinilill/contracts';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, ErrorAlert } from '../../../components/ui/form/alert';
import { PlusIcon } from '../../../components/ui/icons';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel } from '../../../components/ui/panel';
import { LoadingPanel } from '../../../components/ui/spinner';
import { editionOfYear, useEditions } from '../../../lib/edition';
import { useSessionStore } from '../../../lib/session-store';
import { useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useTeamData } from '../api/use-team-data';
import { useTeamLive } from '../api/use-team-live';
import { useTeamStore } from '../stores/team-store';
import { ActivityFilesSection } from './activity-files-section';
import { EntriesSection } from './entries-section';
import { EntryDialog } from './entry-dialog';
import { CertificateBox } from './certificate-box';
import { JoinCodeBox } from './join-code-box';
import { MembersTable } from './members-table';
import { QueuedEntries } from './queued-entries';
import { TeamCard } from './team-card';
import { TeamProgress } from './team-progress';
import { TeamStats } from './team-stats';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './team-page.module.css';

/** Phone widths, where the add-entry button sits in the page instead of floating (team-page.module.css). */
const PHONE_QUERY = '(max-width: 600px)';

/**
 * /team (spec §2 "Team page"): asks to log in, says when the account has no team, and otherwise
 * shows the team: card, join code, figures, progress, members and entries, kept current by the
 * team's live stream and by reading after each own command (read-your-writes).
 */
export function TeamPage() {
  const { t } = useTranslation('team');
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const teamId = useSessionStore((s) => s.identity.teamId);
  useDocumentTitle(t('title'));
  if (!isAuthenticated) return <LoginRequired />;
  if (teamId === null) {
    return (
      <Panel heading={t('title')} headingId="team-heading" testId="team-no-team">
        <p>{t('noTeam')}</p>
      </Panel>
    );
  }
  return <TeamView key={teamId} teamId={teamId} />;
}

function TeamView({ teamId }: { teamId: number }) {
  const { t } = useTranslation('team');
  const participantId = useSessionStore((s) => s.identity.participantId);
  const entriesOpen = useSettings().settings?.entriesOpen === true;
  const resetUi = useTeamStore((s) => s.reset);
  const { state, refresh, patchTeam } = useTeamData(teamId);
  const editions = useEditions();
  const phone = useMediaQuery(PHONE_QUERY);
  const reload = useCallback(() => refresh(), [refresh]);
  useTeamLive(teamId, refresh, reload);

  useEffect(() => resetUi, [resetUi]);

  const onTeamChanged = useCallback(
    (patch: Partial<TeamAnswer>, position: number) => {
      patchTeam(patch);
      refresh(position);
    },
    [patchTeam, refresh],
  );

  if (state.status === 'loading' || editions.status === 'loading') {
    return (
      <LoadingPanel label={t('loading')} testId="team-loading" />
    );
  }
  if (state.status === 'error' || editions.status === 'error') {
    return (
      <Panel heading={t('title')} headingId="team-heading">
        <ErrorAlert code={state.status === 'error' ? state.code : editions.status === 'error' ? editions.code : 'GENERIC_ERROR'} />
      </Panel>
    );
  }
  const { team, members, entries } = state.data;
  // The team's own edition when the answer names it (a team of a past edition), else the site's.
  const edition = editionOfYear(editions.editions, (team as TeamAnswer & { edition?: number }).edition);
  if (edition === null) {
    return (
      <Panel heading={t('title')} headingId="team-heading">
        <ErrorAlert code="GENERIC_ERROR" />
      </Panel>
    );
  }
  return (
    <div className={styles.page}>
      <div className={styles.top}>
        <TeamCard team={team} edition={edition} onChanged={onTeamChanged} />
        <JoinCodeBox teamId={teamId} onChanged={refresh} />
      </div>
      {entriesOpen && phone && (
        <div className={styles.addRow}>
          <AddEntryButton />
        </div>
      )}
      <TeamStats team={team} />
      <TeamProgress team={team} edition={edition} />
      <MembersTable members={members} />
      <QueuedEntries teamId={teamId} members={members} onSent={refresh} />
      {entriesOpen && participantId !== null && <ActivityFilesSection teamId={teamId} onSaved={refresh} />}
      <EntriesSection entries={entries} members={members} entriesOpen={entriesOpen} onChanged={refresh} />
      <CertificateBox teamId={teamId} participantId={participantId} edition={edition} />
      <ActionBar withButton={entriesOpen && !phone} />
      {entriesOpen && <EntryDialog members={members} participantId={participantId} edition={edition} onSaved={refresh} />}
    </div>
  );
}

/**
 * Sticks to the bottom of the window while the page scrolls: the one status line about entries
 * (added, changed, deleted — or why not) and, `withButton`, the add-entry button. The status
 * region is always on the page, so that each new message in it is announced. On a phone the
 * button is not here but in the page under the team card: a floating button covers a third of a
 * 360 px screen's width, and with it the stat boxes and the tables' search fields.
 */
function ActionBar({ withButton }: { withButton: boolean }) {
  const notice = useTeamStore((s) => s.notice);
  return (
    <div className={styles.actionBar}>
      <div className={styles.notice} role="status" data-testid="entries-status">
        {notice?.variant === 'success' && (
          <Alert variant="success" live={false}>
            {notice.text}
          </Alert>
        )}
      </div>
      {notice?.variant === 'error' && (
        <div className={styles.notice}>
          <ErrorAlert code={notice.code} />
        </div>
      )}
      {withButton && <AddEntryButton floating />}
    </div>
  );
}

/** Opens the add-entry dialog; `floating` gives it the shadow of a button above the page. */
function AddEntryButton({ floating = false }: { floating?: boolean }) {
  const { t } = useTranslation('team');
  const openAddEntry = useTeamStore((s) => s.openAddEntry);
  return (
    <button
      type="button"
      className={`${formStyles.button} ${floating ? styles.addButton : styles.addButtonInline}`}
      onClick={openAddEntry}
      data-testid="add-entry"
    >
      <PlusIcon size={20} />
      {t('entry.add')}
    </button>
  );
}
