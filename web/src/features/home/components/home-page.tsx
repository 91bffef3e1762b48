import { currentEdition } from '@sinilill/domain';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useStats } from '../api/get-stats';
import { RouteProgress } from './route-progress';
import { StatBoxes } from './stat-boxes';
import { TopTeams } from './top-teams';
import { Welcome } from './welcome';
import styles from './home.module.css';

/** The home page (spec §2 "Home"): welcome, totals, top teams and the route with every team. */
export function HomePage() {
  const { t } = useTranslation('home');
  useDocumentTitle();
  const state = useStats();
  const edition = currentEdition;

  return (
    <div className={styles.home}>
      <Welcome edition={edition} />
      {state.status === 'loading' ? (
        <div className={styles.loading} data-testid="stats-loading">
          <Spinner label={t('stats.loading')} />
        </div>
      ) : (
        <>
          {state.status === 'error' && (
            <p className={styles.error} role="alert" data-testid="stats-error">
              {t('stats.error')}
            </p>
          )}
          <StatBoxes stats={state.stats} />
          <TopTeams teams={state.stats.teams} today={state.stats.today} goldFrom={edition.flowers.maxPerLapBase} />
          <RouteProgress teams={state.stats.teams} route={edition.route} teamDots={edition.teamDots} />
        </>
      )}
    </div>
  );
}
