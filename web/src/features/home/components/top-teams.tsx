import type { TeamStat } from '@sinilill/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../../lib/format-date';
import { useLang } from '../../../lib/use-lang';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useHomeStore } from '../stores/home-store';
import { SORT_ORDERS, topTeams } from '../utils/sort-teams';
import { TeamCard } from './team-card';
import { TeamCarousel } from './team-carousel';
import homeStyles from './home.module.css';
import styles from './top-teams.module.css';

/** How many top teams are shown, on wide screens as a grid, on small ones in the carousel (spec §9: 8). */
export const TOP_TEAM_COUNT = 8;
/** Spec §9: the carousel is used up to this width. */
export const MOBILE_QUERY = '(max-width: 600px)';

export interface TopTeamsProps {
  teams: readonly TeamStat[];
  /** The day `dailyDistance` refers to, YYYY-MM-DD. */
  today: string;
  /** Flowers from which a card is gold (spec §9: 101). */
  goldFrom: number;
}

/** Top teams with the three sort buttons of spec §2 "Home". */
export function TopTeams({ teams, today, goldFrom }: TopTeamsProps) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const order = useHomeStore((s) => s.sortOrder);
  const setOrder = useHomeStore((s) => s.setSortOrder);
  const small = useMediaQuery(MOBILE_QUERY);
  const shown = useMemo(() => topTeams(teams, order, TOP_TEAM_COUNT), [teams, order]);

  const cards = shown.map((team, index) => (
    <TeamCard key={team.team.id} team={team} rank={index + 1} order={order} goldFrom={goldFrom} />
  ));

  return (
    <section className={homeStyles.section} aria-labelledby="top-teams-heading">
      <div className={styles.headingRow}>
        <h2 id="top-teams-heading" className={homeStyles.sectionHeading}>
          {t('topTeams.heading')}
        </h2>
        <div className={styles.sortButtons} role="group" aria-label={t('topTeams.sortBy')}>
          {SORT_ORDERS.map((value) => (
            <button
              key={value}
              type="button"
              className={styles.sortButton}
              aria-pressed={order === value}
              onClick={() => setOrder(value)}
              data-testid={`sort-${value}`}
            >
              {t(`topTeams.sort.${value}`)}
            </button>
          ))}
        </div>
      </div>
      {order === 2 && today && <p className={styles.asOf}>{t('topTeams.asOf', { date: formatDay(today, lang) })}</p>}
      {shown.length === 0 ? (
        <p className={styles.empty}>{t('topTeams.empty')}</p>
      ) : small ? (
        <TeamCarousel>{cards}</TeamCarousel>
      ) : (
        <ol className={styles.grid}>
          {cards.map((card) => (
            <li key={card.key}>{card}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
