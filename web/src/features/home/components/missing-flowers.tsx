import type { TeamStat } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useLang } from '../../../lib/use-lang';
import { useNumberFormat } from '../../../lib/use-number-format';
import { missingFlowers } from '../utils/missing-flowers';
import homeStyles from './home.module.css';
import styles from './missing-flowers.module.css';

export interface MissingFlowersProps {
  teams: readonly TeamStat[];
  edition: Edition;
}

/**
 * "Missing flowers" of spec §2 "Home": how many of the flowers the teams can hold on their
 * current laps are still out there (one figure, with what a lap holds in words), and the missions
 * no team has reached yet.
 */
export function MissingFlowers({ teams, edition }: MissingFlowersProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const format = useNumberFormat();
  const { route, flowers } = edition;
  const result = useMemo(() => missingFlowers(teams, route.missions, flowers.base), [teams, route.missions, flowers.base]);
  const share = result.possible > 0 ? (result.collected / result.possible) * 100 : 0;

  return (
    <section className={homeStyles.section} aria-labelledby="missing-flowers-heading" data-testid="missing-flowers">
      <h2 id="missing-flowers-heading" className={homeStyles.sectionHeading}>
        {t('missing.heading')}
      </h2>
      {result.teams === 0 ? (
        <p className={styles.lead}>{t('missing.noTeams', { count: route.missions.length })}</p>
      ) : (
        <>
          <div className={styles.summary}>
            <p className={styles.figure}>
              <span className={styles.number} data-testid="missing-flowers-count">
                {format(result.missing)}
              </span>{' '}
              <span className={styles.figureLabel}>{t('missing.missing', { count: result.missing })}</span>
            </p>
            <div className={styles.bar} aria-hidden="true">
              <span className={styles.barFill} style={{ width: `${share}%` }} />
            </div>
            {/* What a lap holds, in words: the box's one flower figure is the count above (the
                community's total is the stat box's, and counts every lap). */}
            <p className={styles.note} data-testid="missing-flowers-per-lap">
              {t('missing.perLap', { count: flowers.base + route.missions.length, missions: route.missions.length })}
            </p>
          </div>
        </>
      )}

      {result.unreached.length === 0 ? (
        <p className={styles.allReached} data-testid="missing-flowers-all-reached">
          <FlowerIcon size={20} /> {t('missing.allReached')}
        </p>
      ) : (
        result.teams > 0 && (
          <>
            <h3 className={styles.listHeading}>{t('missing.unreachedHeading', { count: result.unreached.length })}</h3>
            <ul className={styles.list} data-testid="missing-flowers-missions">
              {result.unreached.map((mission) => (
                <li key={mission.id} className={styles.item} data-mission-id={mission.id}>
                  <FlowerIcon size={18} className={styles.missingFlower} />
                  <span className={styles.itemText}>
                    <span className={styles.itemName}>{t('missing.mission', { id: mission.id, name: mission.name[lang] })}</span>{' '}
                    <span className={styles.itemOperation}>{mission.description[lang]}</span>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )
      )}
    </section>
  );
}
