import type { TeamStat } from '@sinilill/contracts';
import type { Edition, Route } from '@sinilill/domain';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { useHomeStore } from '../stores/home-store';
import { percentOfLap, teamDotPosition } from '../utils/route-layout';
import { teamCountsByMission } from '../utils/teams-in-mission';
import { MissionCloseup } from './mission-closeup';
import homeStyles from './home.module.css';
import styles from './route-progress.module.css';

export const CLOSEUP_ID = 'mission-closeup';

/** Segments at least this share of the lap show their mission number. */
const LABELLED_SHARE = 0.025;

export interface RouteProgressProps {
  teams: readonly TeamStat[];
  route: Route;
  teamDots: Edition['teamDots'];
}

/**
 * The main progress bar of spec §2 "Home": one segment per mission, as wide as its km; a flower
 * at each mission's end; a dot per team, across by in-lap distance and up by team size (§9).
 * A segment toggles the close-up of its mission.
 */
export function RouteProgress({ teams, route, teamDots }: RouteProgressProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const format = useNumberFormat();
  const openId = useHomeStore((s) => s.openMissionId);
  const toggleMission = useHomeStore((s) => s.toggleMission);
  const closeMission = useHomeStore((s) => s.closeMission);
  const segments = useRef(new Map<number, HTMLButtonElement>());
  const counts = useMemo(() => teamCountsByMission(teams, route.missions), [teams, route.missions]);
  const openMission = route.missions.find((mission) => mission.id === openId);

  return (
    <section className={homeStyles.section} aria-labelledby="route-heading">
      <h2 id="route-heading" className={homeStyles.sectionHeading}>
        {t('route.heading')}
      </h2>
      <p className={styles.intro}>{t('route.intro')}</p>
      <p className={styles.scrollHint}>{t('route.scrollHint')}</p>
      <div className={styles.scroller}>
        <div className={styles.track}>
          <ul className={styles.dots} aria-hidden="true">
            {teams.map((team) => {
              const { leftPercent, bottomPercent } = teamDotPosition(team, route.lapLength, teamDots);
              return (
                <li
                  key={team.team.id}
                  className={styles.dot}
                  style={{ left: `${leftPercent}%`, bottom: `${bottomPercent}%` }}
                  title={t('route.dot', { name: team.team.team_name, km: format(team.inLapDistance) })}
                  data-testid="team-dot"
                  data-team-id={team.team.id}
                />
              );
            })}
          </ul>
          <div className={styles.bar} role="group" aria-label={t('route.missions')}>
            {route.missions.map((mission, index) => {
              const share = mission.distance / route.lapLength;
              const label = `${t('route.mission', {
                id: mission.id,
                name: mission.name[lang],
                start: format(mission.start),
                end: format(mission.end),
              })}, ${t('route.missionTeams', { count: counts[index] ?? 0 })}`;
              return (
                <button
                  key={mission.id}
                  ref={(element) => {
                    if (element) segments.current.set(mission.id, element);
                    else segments.current.delete(mission.id);
                  }}
                  type="button"
                  className={`${styles.segment} ${index % 2 === 1 ? styles.segmentAlt : ''}`}
                  style={{ width: `${share * 100}%` }}
                  aria-expanded={openId === mission.id}
                  aria-controls={openId === mission.id ? CLOSEUP_ID : undefined}
                  aria-label={label}
                  title={label}
                  onClick={() => toggleMission(mission.id)}
                  data-testid={`mission-${mission.id}`}
                >
                  {share >= LABELLED_SHARE && <span aria-hidden="true">{mission.id}</span>}
                </button>
              );
            })}
          </div>
          <div className={styles.markers} aria-hidden="true">
            {route.missions.map((mission) => (
              <span key={mission.id} className={styles.marker} style={{ left: `${percentOfLap(mission.end, route.lapLength)}%` }}>
                <FlowerIcon size={14} />
              </span>
            ))}
          </div>
          <div className={styles.scale} aria-hidden="true">
            <span>{t('route.scaleStart')}</span>
            <span>{t('route.scaleEnd', { km: format(route.lapLength) })}</span>
          </div>
        </div>
      </div>
      {openMission && (
        <MissionCloseup
          id={CLOSEUP_ID}
          mission={openMission}
          missions={route.missions}
          teams={teams}
          teamDots={teamDots}
          onClose={() => {
            closeMission();
            segments.current.get(openMission.id)?.focus();
          }}
        />
      )}
    </section>
  );
}
