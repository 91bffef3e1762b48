import type { TeamStat } from '@sinilill/contracts';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { useMoneyRaised } from '../../../lib/use-money-raised';
import { useNumberFormat } from '../../../lib/use-number-format';
import { sortFigure, type SortOrder } from '../utils/sort-teams';
import { TeamIcon } from '../../../components/ui/team-icon';
import styles from './top-teams.module.css';

export interface TeamCardProps {
  team: TeamStat;
  rank: number;
  order: SortOrder;
  /** Flowers from which the card is gold and above which a count replaces the icons (spec §9: 101). */
  goldFrom: number;
}

/** One of the top teams: picture, name, members, money raised (euros), the figure it is ranked by, and its blue flowers. */
export function TeamCard({ team, rank, order, goldFrom }: TeamCardProps) {
  const { t } = useTranslation('home');
  const format = useNumberFormat();
  const raised = useMoneyRaised()(team.raised_cents, team.raised_unknown_count);
  const gold = team.blueFlowers >= goldFrom;
  const flowersText = t('topTeams.flowers', { count: team.blueFlowers, formatted: format(team.blueFlowers) });

  return (
    <article className={`${styles.card} ${gold ? styles.gold : ''}`} data-testid="top-team" data-gold={gold || undefined}>
      <header className={styles.cardHeader}>
        <span className={styles.avatarWrap}>
          <TeamIcon icon={team.team.icon} size={48} alt={t('topTeams.iconAlt', { name: team.team.team_name })} />
          <span className={styles.rank}>
            <span aria-hidden="true">{rank}</span>
            <span className="sr-only">{t('topTeams.rank', { rank })}</span>
          </span>
        </span>
        <div className={styles.cardTitle}>
          <h3 className={styles.teamName}>{team.team.team_name}</h3>
          <p className={styles.members}>{t('topTeams.members', { count: team.participants })}</p>
          <p className={styles.members} data-testid="top-team-raised" title={raised.note}>
            {t('topTeams.raised', { amount: raised.text })}
          </p>
        </div>
      </header>
      <p className={styles.figure} data-testid="top-team-figure">
        {order === 1 ? (
          <span className={styles.figureValue}>{flowersText}</span>
        ) : (
          <>
            <span className={styles.figureValue}>{format(sortFigure(team, order), 2)}</span>{' '}
            <span className={styles.figureUnit}>{t(`topTeams.figure.${order}`)}</span>
          </>
        )}
      </p>
      {team.blueFlowers > goldFrom ? (
        <p className={styles.flowerCount} data-testid="top-team-flowers">
          <FlowerIcon size={22} />
          <span aria-hidden="true">×</span> <span className="sr-only">{flowersText}</span>
          <span aria-hidden="true">{format(team.blueFlowers)}</span>
        </p>
      ) : (
        <p className={styles.flowers} role="img" aria-label={flowersText} data-testid="top-team-flowers">
          {Array.from({ length: team.blueFlowers }, (_, index) => (
            <FlowerIcon key={index} size={14} />
          ))}
        </p>
      )}
    </article>
  );
}
