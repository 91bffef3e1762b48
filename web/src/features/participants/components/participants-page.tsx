import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingPanel } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useStats } from '../../../lib/use-stats';
import { teamRows } from '../utils/team-rows';
import { TeamsTable } from './teams-table';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './participants.module.css';

/** /participants (spec §2 "Participants (statistics)"): the title, a sentence and every team in a table. */
export function ParticipantsPage() {
  const { t } = useTranslation('participants');
  useDocumentTitle(t('title'));
  const state = useStats();
  const rows = useMemo(() => teamRows(state.stats.teams), [state.stats.teams]);

  return (
    <section className={styles.page} aria-labelledby="participants-heading">
      <header className={styles.header}>
        <h1 id="participants-heading" className={styles.title}>
          {t('title')}
        </h1>
        <p className={styles.intro}>{t('intro')}</p>
      </header>
      {state.status === 'loading' ? (
        <LoadingPanel label={t('loading')} testId="teams-loading" />
      ) : state.status === 'error' ? (
        <div className={styles.error} data-testid="teams-error">
          <p role="alert">{t('error')}</p>
          <button type="button" className={formStyles.button} onClick={state.reload} data-testid="teams-retry">
            {t('retry')}
          </button>
        </div>
      ) : (
        <div className={styles.card}>
          <TeamsTable rows={rows} />
        </div>
      )}
    </section>
  );
}
