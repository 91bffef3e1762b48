import { currentEdition } from '@sinilill/domain';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadRouteMap } from '../../../components/ui/route-map';
import { LoadingPanel } from '../../../components/ui/spinner';
import { useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useStats } from '../../../lib/use-stats';
import { MissingFlowers } from './missing-flowers';
import { RouteMapSection } from './route-map-section';
import { RouteProgress } from './route-progress';
import { StatBoxes } from './stat-boxes';
import { TopTeams } from './top-teams';
import { Welcome } from './welcome';
import styles from './home.module.css';

/**
 * The home page (spec §2 "Home"), in the spec's order: welcome and the edition's phase, missing
 * flowers, the interactive map, the four totals, top teams, and the route bar with every team.
 */
export function HomePage() {
  const { t } = useTranslation('home');
  useDocumentTitle();
  const state = useStats();
  const edition = currentEdition;
  const { settings } = useSettings();
  // The map's chunk downloads while the stats load, not after.
  useEffect(preloadRouteMap, []);

  return (
    <div className={styles.home}>
      {/* The phase follows the app's clock: the stats' `today`, not the browser's date. */}
      <Welcome
        edition={edition}
        today={state.stats.today}
        entriesOpen={settings ? settings.entriesOpen : null}
        registrationEnabled={settings ? settings.registrationEnabled : null}
      />
      {state.status === 'loading' ? (
        <LoadingPanel label={t('stats.loading')} testId="stats-loading" />
      ) : (
        <>
          {state.status === 'error' && (
            <p className={styles.error} role="alert" data-testid="stats-error">
              {t('stats.error')}
            </p>
          )}
          <MissingFlowers teams={state.stats.teams} edition={edition} />
          <RouteMapSection teams={state.stats.teams} route={edition.route} />
          <StatBoxes stats={state.stats} />
          <TopTeams teams={state.stats.teams} today={state.stats.today} goldFrom={edition.flowers.maxPerLapBase} />
          <RouteProgress teams={state.stats.teams} route={edition.route} teamDots={edition.teamDots} />
        </>
      )}
    </div>
  );
}
