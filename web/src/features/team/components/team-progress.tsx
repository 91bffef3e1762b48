import type { TeamAnswer } from '@sinilill/contracts';
import { teamProgress, type Edition } from '@sinilill/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import styles from './team-progress.module.css';

/**
 * The team's progress bar (spec §2, §4): how far into the current lap of the route the team is
 * (in-lap distance out of the lap's 1893 km), the laps completed (prestige) when there are any,
 * the blue flowers, the current mission and the distance to the next flower. A progressbar with
 * its value in words for screen readers; the mission ends are marked on the bar. `edition`: the
 * team's edition, whose route and flower rules apply.
 */
export function TeamProgress({ team, edition }: { team: TeamAnswer; edition: Edition }) {
  const { t } = useTranslation('team');
  const lang = useLang();
  const format = useNumberFormat();
  const labelId = useId();
  const { route } = edition;
  const lap = route.lapLength;
  const inLap = Math.min(Math.max(team.inLapDistance, 0), lap);
  const percent = Math.floor((inLap / lap) * 1000) / 10;
  // The team's distance is a rounded, non-negative integer; the guard keeps odd data from throwing.
  const progress = Number.isFinite(team.distance) && team.distance >= 0 ? teamProgress(team.distance, edition) : null;

  return (
    <section className={styles.section} aria-labelledby="team-progress-heading">
      <div className={styles.head}>
        <h2 id="team-progress-heading" className={styles.heading}>
          {t('progress.heading')}
        </h2>
        <div className={styles.badges}>
          {team.prestige > 0 && <span className={styles.lapBadge}>{t('progress.laps', { count: team.prestige })}</span>}
          <span className={styles.flowerBadge}>
            <FlowerIcon size={18} /> {t('progress.flowers', { count: team.blueFlowers })}
          </span>
        </div>
      </div>
      <p className={styles.label}>
        <span id={labelId}>{t('progress.label')}</span>{' '}
        <strong>{t('progress.value', { km: format(inLap), lap: format(lap) })}</strong>
      </p>
      <div
        className={styles.track}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={lap}
        aria-valuenow={inLap}
        aria-valuetext={t('progress.valueText', { km: format(inLap), lap: format(lap), percent: format(percent, percent % 1 === 0 ? 0 : 1) })}
        data-testid="team-progress"
      >
        <div className={styles.fill} style={{ width: `${(inLap / lap) * 100}%` }} />
        {route.missions.slice(0, -1).map((mission) => (
          <span
            key={mission.id}
            className={`${styles.tick} ${mission.end <= inLap ? styles.tickDone : ''}`}
            style={{ left: `${(mission.end / lap) * 100}%` }}
            aria-hidden="true"
          />
        ))}
      </div>
      {progress && (
        <p className={styles.details}>
          {progress.mission && <span>{t('progress.mission', { name: progress.mission.name[lang] })}</span>}
          <span>{t('progress.nextFlower', { km: format(progress.distanceToNextFlower) })}</span>
        </p>
      )}
    </section>
  );
}
