import type { TeamStat } from '@sinilill/contracts';
import type { Mission, Route } from '@sinilill/domain';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTE_MAP_ASPECT_RATIO, RouteMap, type RouteMapLabels, type RouteMapMission } from '../../../components/ui/route-map';
import { Spinner } from '../../../components/ui/spinner';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { missionProgress, type MissionProgress } from '../utils/mission-progress';
import { teamsInMission } from '../utils/teams-in-mission';
import { MapErrorBoundary } from './map-error-boundary';
import homeStyles from './home.module.css';
import styles from './route-map-section.module.css';

/** Team names listed in the details panel before "and N more". */
const LISTED_TEAMS = 10;

export interface RouteMapSectionProps {
  teams: readonly TeamStat[];
  route: Route;
}

function MissionDetails({ mission, progress, teams }: { mission: Mission; progress: MissionProgress; teams: readonly TeamStat[] }) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const format = useNumberFormat();
  const inside = useMemo(() => teamsInMission(teams, mission), [teams, mission]);
  const listed = inside.slice(0, LISTED_TEAMS);

  return (
    <div className={styles.details}>
      <h3 className={styles.detailsTitle}>{t('map.details.title', { id: mission.id, name: mission.name[lang] })}</h3>
      <p className={styles.operation}>{mission.description[lang]}</p>
      <dl className={styles.facts}>
        <div>
          <dt>{t('map.details.stretch')}</dt>
          <dd>{t('route.closeup.span', { start: format(mission.start), end: format(mission.end), distance: format(mission.distance) })}</dd>
        </div>
        <div>
          <dt>{t('map.details.flower')}</dt>
          <dd>{progress.reached ? t('map.details.reached') : t('map.details.notReached')}</dd>
        </div>
        <div>
          <dt>{t('map.details.teamsNow')}</dt>
          <dd data-testid="route-map-details-count">{format(progress.teamCount)}</dd>
        </div>
      </dl>
      {inside.length === 0 ? (
        <p className={styles.empty}>{t('route.closeup.empty')}</p>
      ) : (
        <>
          <ol className={styles.teams}>
            {listed.map((team) => (
              <li key={team.team.id} data-testid="route-map-details-team">
                <span className={styles.teamName}>{team.team.team_name}</span>
                <span className={styles.km}>{format(team.inLapDistance)} km</span>
              </li>
            ))}
          </ol>
          {inside.length > listed.length && <p className={styles.more}>{t('map.details.more', { count: inside.length - listed.length })}</p>}
        </>
      )}
    </div>
  );
}

/**
 * The embedded interactive map of spec §2 "Home". The map's code and geodata arrive
 * in a chunk of their own, so the first load of the page stays small; until then a spinner.
 */
export function RouteMapSection({ teams, route }: RouteMapSectionProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const progress = useMemo(() => missionProgress(teams, route.missions), [teams, route.missions]);

  const missions = useMemo(
    (): RouteMapMission[] =>
      route.missions.map((mission, index) => {
        const state = progress[index] ?? { teamCount: 0, reached: false };
        return {
          id: mission.id,
          region: mission.name.en,
          ...(mission.position ? { position: mission.position } : {}),
          teamCount: state.teamCount,
          reached: state.reached,
          label: t('map.marker', {
            id: mission.id,
            name: mission.name[lang],
            operation: mission.description[lang],
            teams: t('map.teamsNow', { count: state.teamCount }),
            state: state.reached ? t('map.reached') : t('map.notReached'),
          }),
        };
      }),
    [route.missions, progress, t, lang],
  );

  const labels: RouteMapLabels = {
    description: t('map.description', { count: route.missions.length }),
    markers: t('map.markers'),
    controls: t('map.controls'),
    zoomIn: t('map.zoomIn'),
    zoomOut: t('map.zoomOut'),
    reset: t('map.reset'),
    legend: t('map.legend.heading'),
    legendRegion: t('map.legend.region'),
    legendRoute: t('map.legend.route'),
    legendReached: t('map.legend.reached'),
    legendNotReached: t('map.legend.notReached'),
    legendTeams: t('map.legend.teams'),
    detailsEmpty: t('map.details.empty'),
    notOnMap: t('map.notOnMap'),
  };

  const renderDetails = (missionId: number) => {
    const index = route.missions.findIndex((mission) => mission.id === missionId);
    const mission = route.missions[index];
    const state = progress[index];
    return mission && state ? <MissionDetails mission={mission} progress={state} teams={teams} /> : null;
  };

  return (
    <section className={homeStyles.section} aria-labelledby="route-map-heading">
      <h2 id="route-map-heading" className={homeStyles.sectionHeading}>
        {t('map.heading')}
      </h2>
      <MapErrorBoundary
        fallback={
          <p className={styles.failed} role="alert" data-testid="route-map-error">
            {t('map.error')}
          </p>
        }
      >
        <Suspense
          fallback={
            <div className={styles.loading} style={{ aspectRatio: ROUTE_MAP_ASPECT_RATIO }} data-testid="route-map-loading">
              <Spinner label={t('map.loading')} />
            </div>
          }
        >
          <RouteMap missions={missions} labels={labels} renderDetails={renderDetails} headingId="route-map-heading" />
        </Suspense>
      </MapErrorBoundary>
    </section>
  );
}
