import { useTranslation } from 'react-i18next';
import { toPageQuery, useServerTable, type ServerTableQuery } from '../../../components/ui/data-table';
import { LoadingPanel } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { DEFAULT_TEAM_SORT, getTeamPage, PUBLIC_PAGE_SIZE, SEARCH_MAX, TEAM_SORTS } from '../api/get-team-page';
import { teamRows } from '../utils/team-rows';
import { TeamsTable } from './teams-table';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './participants.module.css';

/** One page of the table from the server (GET /api/stats/teams). */
const loadTeams = (query: ServerTableQuery, signal: AbortSignal) =>
  getTeamPage(toPageQuery(query, TEAM_SORTS, DEFAULT_TEAM_SORT.sort), signal).then((answer) => ({ rows: teamRows(answer.rows), total: answer.total }));

const INITIAL_SORT = { id: DEFAULT_TEAM_SORT.sort, desc: DEFAULT_TEAM_SORT.order === 'desc' };

/**
 * /participants (spec §2 "Participants (statistics)"): the title, a sentence and the teams in a
 * table the server pages, sorts and searches (10 teams per read, however many
 * there are). A spinner until the first page; a failed read says so with a retry button (over the
 * table, which keeps the last page, once one has come).
 */
export function ParticipantsPage() {
  const { t } = useTranslation('participants');
  useDocumentTitle(t('title'));
  const table = useServerTable({ load: loadTeams, initialSort: INITIAL_SORT, pageSize: PUBLIC_PAGE_SIZE, searchMaxLength: SEARCH_MAX });

  return (
    <section className={styles.page} aria-labelledby="participants-heading">
      <header className={styles.header}>
        <h1 id="participants-heading" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.intro}>{t('intro')}</p>
      </header>
      {table.failure !== null && (
        <div className={styles.error} data-testid="teams-error">
          <p role="alert">{t('error')}</p>
          <button type="button" className={formStyles.button} onClick={table.reload} data-testid="teams-retry">
            {t('retry')}
          </button>
        </div>
      )}
      {table.rows === null ? (
        table.failure === null && <LoadingPanel label={t('loading')} testId="teams-loading" />
      ) : (
        <div className={styles.card}>
          <TeamsTable rows={table.rows} server={table.server} />
        </div>
      )}
    </section>
  );
}
