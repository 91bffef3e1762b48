import type { TeamStat } from '@sinilill/contracts';
import type { Edition, Mission } from '@sinilill/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { useHomeStore } from '../stores/home-store';
import { percentOfSpan, teamDotHeight } from '../utils/route-layout';
import { teamsInMission } from '../utils/teams-in-mission';
import styles from './route-progress.module.css';

export interface MissionCloseupProps {
  id: string;
  mission: Mission;
  missions: readonly Mission[];
  teams: readonly TeamStat[];
  teamDots: Edition['teamDots'];
  onClose: () => void;
}

/** The close-up of one mission (spec §2 "Home"): its stretch of the route and the teams on it. */
export function MissionCloseup({ id, mission, missions, teams, teamDots, onClose }: MissionCloseupProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const format = useNumberFormat();
  const openMission = useHomeStore((s) => s.openMission);
  const inside = useMemo(() => teamsInMission(teams, mission), [teams, mission]);
  const index = missions.findIndex((m) => m.id === mission.id);
  const previous = missions[(index - 1 + missions.length) % missions.length];
  const next = missions[(index + 1) % missions.length];
  const titleId = `${id}-title`;

  return (
    <div
      id={id}
      className={styles.closeup}
      role="region"
      aria-labelledby={titleId}
      data-testid="mission-closeup"
      data-mission-id={mission.id}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div className={styles.closeupHeader}>
        <div>
          <h3 id={titleId} className={styles.closeupTitle}>
            {t('route.closeup.title', { id: mission.id, name: mission.name[lang] })}
          </h3>
          <p className={styles.closeupMeta}>
            <span>{mission.description[lang]}</span> <span aria-hidden="true">·</span>{' '}
            <span className={styles.nowrap}>
              {t('route.closeup.span', { start: format(mission.start), end: format(mission.end), distance: format(mission.distance) })}
            </span>
          </p>
        </div>
        <div className={styles.closeupActions}>
          {previous && (
            <button type="button" className={styles.iconButton} onClick={() => openMission(previous.id)} aria-label={t('route.closeup.previous')} title={t('route.closeup.previous')}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
          )}
          {next && (
            <button type="button" className={styles.iconButton} onClick={() => openMission(next.id)} aria-label={t('route.closeup.next')} title={t('route.closeup.next')}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
          )}
          <button type="button" className={styles.closeButton} onClick={onClose} data-testid="mission-closeup-close">
            {t('route.closeup.close')}
          </button>
        </div>
      </div>

      <div className={styles.zoom} aria-hidden="true">
        <div className={`${styles.zoomDots} ${inside.length === 0 ? styles.zoomDotsEmpty : ''}`}>
          {inside.map((team) => (
            <span
              key={team.team.id}
              className={styles.dot}
              style={{
                left: `${percentOfSpan(team.inLapDistance, mission)}%`,
                bottom: `${teamDotHeight(team.participants, teamDots)}%`,
              }}
              title={t('route.dot', { name: team.team.team_name, km: format(team.inLapDistance) })}
            />
          ))}
        </div>
        <div className={styles.zoomBar} />
        <div className={styles.zoomScale}>
          <span>{format(mission.start)} km</span>
          <span className={styles.zoomEnd}>
            {format(mission.end)} km <FlowerIcon size={16} />
          </span>
        </div>
      </div>

      <h4 className={styles.closeupTeamsHeading}>
        {t('route.closeup.teams')} ({inside.length})
      </h4>
      {inside.length === 0 ? (
        <p className={styles.closeupEmpty}>{t('route.closeup.empty')}</p>
      ) : (
        <ol className={styles.closeupTeams}>
          {inside.map((team) => (
            <li key={team.team.id} data-testid="mission-closeup-team">
              <span className={styles.closeupTeamName}>{team.team.team_name}</span>
              <span className={styles.closeupKm}>
                {format(team.inLapDistance)} km
                {team.prestige > 0 && <span className={styles.lap}>{t('route.closeup.lap', { lap: team.prestige + 1 })}</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
