import type { TeamStat } from '@sinilill/contracts';
import type { Edition, Route } from '@sinilill/domain';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { rovingTarget } from '../../../lib/roving-focus';
import { useScrollEdges } from '../../../lib/scroll-edges';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { useHomeStore } from '../stores/home-store';
import { missionBar, teamDotPosition } from '../utils/route-layout';
import { teamCountsByMission } from '../utils/teams-in-mission';
import { MissionCloseup } from './mission-closeup';
import homeStyles from './home.module.css';
import styles from './route-progress.module.css';

export const CLOSEUP_ID = 'mission-closeup';

/**
 * The bar is never narrower than this (route-progress.module.css, .track), and no mission's
 * segment narrower than MIN_SEGMENT_PX on it: each is a button of at least 24 × 24 CSS px
 * (WCAG 2.2, 2.5.8 target size) wide enough for its number.
 */
const BAR_MIN_WIDTH_PX = 900;
const MIN_SEGMENT_PX = 28;

export interface RouteProgressProps {
  teams: readonly TeamStat[];
  route: Route;
  teamDots: Edition['teamDots'];
}

/**
 * The main progress bar of spec §2 "Home": one segment per mission, as wide as its km (the
 * shortest widened to a usable target); a flower at each mission's end; a dot per team, across
 * by in-lap distance and up by team size (§9). A segment toggles the close-up of its mission.
 * The segments are one toolbar and one Tab stop: the arrow keys, Home and End move between them
 * (roving tabindex), Enter or Space toggles. On a narrow screen the bar scrolls sideways and says so.
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
  const bar = useMemo(() => missionBar(route.missions, (MIN_SEGMENT_PX / BAR_MIN_WIDTH_PX) * 100), [route.missions]);
  const openMission = route.missions.find((mission) => mission.id === openId);
  // The segment that takes the Tab stop: the last one focused or opened (the close-up's own
  // previous and next buttons open others), else the first.
  const [focusedId, setFocusedId] = useState<number | null>(openId);
  const [seenOpenId, setSeenOpenId] = useState(openId);
  if (seenOpenId !== openId) {
    setSeenOpenId(openId);
    if (openId !== null) setFocusedId(openId);
  }
  const tabStopId = route.missions.some((mission) => mission.id === focusedId) ? focusedId : route.missions[0]?.id;
  const [scrollerRef, edges] = useScrollEdges<HTMLDivElement>();
  const scrolls = edges.start || edges.end;

  const onBarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = route.missions.findIndex((mission) => segments.current.get(mission.id) === document.activeElement);
    const target = rovingTarget(event.key, index, route.missions.length);
    const mission = target === null ? undefined : route.missions[target];
    if (!mission) return;
    event.preventDefault();
    setFocusedId(mission.id);
    segments.current.get(mission.id)?.focus();
  };

  return (
    <section className={homeStyles.section} aria-labelledby="route-heading">
      <h2 id="route-heading" className={homeStyles.sectionHeading}>
        {t('route.heading')}
      </h2>
      <p className={styles.intro}>{t('route.intro')}</p>
      {scrolls && (
        <p className={styles.scrollHint} data-testid="route-scroll-hint">
          <span aria-hidden="true">↔</span> {t('route.scrollHint')}
        </p>
      )}
      <div className={styles.scrollFrame} data-hidden-start={edges.start || undefined} data-hidden-end={edges.end || undefined}>
        <div ref={scrollerRef} className={styles.scroller}>
          <div className={styles.track}>
            <ul className={styles.dots} aria-hidden="true">
              {teams.map((team) => {
                const { leftPercent, bottomPercent } = teamDotPosition(team, bar, teamDots);
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
            <div className={styles.bar} role="toolbar" aria-label={t('route.missions')} onKeyDown={onBarKeyDown} data-testid="route-missions">
              {route.missions.map((mission, index) => {
                const width = bar.segments[index]?.width ?? 0;
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
                    style={{ width: `${width}%` }}
                    tabIndex={mission.id === tabStopId ? 0 : -1}
                    aria-expanded={openId === mission.id}
                    aria-controls={openId === mission.id ? CLOSEUP_ID : undefined}
                    aria-label={label}
                    title={label}
                    onClick={() => toggleMission(mission.id)}
                    onFocus={() => setFocusedId(mission.id)}
                    data-testid={`mission-${mission.id}`}
                  >
                    <span aria-hidden="true">{mission.id}</span>
                  </button>
                );
              })}
            </div>
            <div className={styles.markers} aria-hidden="true">
              {route.missions.map((mission, index) => (
                <span key={mission.id} className={styles.marker} style={{ left: `${(bar.segments[index]?.left ?? 0) + (bar.segments[index]?.width ?? 0)}%` }}>
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
