import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { LoginRequired } from '../../../components/ui/login-required';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { useSessionStore } from '../../../lib/session-store';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNumberFormat } from '../../../lib/use-number-format';
import { useTeam } from '../api/get-team';
import styles from './team.module.css';

/**
 * /team (spec §2 "Team page"): asks to log in, says when the account has no team, and otherwise
 * shows the team's card (name, description, distance, blue flowers) from GET /api/team/{id}.
 * Entries, members and the rest of the page come with their issue.
 */
export function TeamPage() {
  const { t } = useTranslation('team');
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const teamId = useSessionStore((s) => s.identity.teamId);
  useDocumentTitle(t('title'));
  if (!isAuthenticated) return <LoginRequired />;
  if (teamId === null) {
    return (
      <Panel heading={t('title')} headingId="team-heading" testId="team-no-team">
        <p>{t('noTeam')}</p>
      </Panel>
    );
  }
  return <TeamCard key={teamId} id={teamId} />;
}

function TeamCard({ id }: { id: number }) {
  const { t } = useTranslation('team');
  const format = useNumberFormat();
  const state = useTeam(id);

  if (state.status === 'loading') {
    return (
      <div className={styles.loading} data-testid="team-loading">
        <Spinner label={t('loading')} />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <Panel heading={t('title')} headingId="team-heading">
        <ErrorAlert code={state.code} />
      </Panel>
    );
  }
  const { team } = state;
  return (
    <article className={styles.card} aria-labelledby="team-heading" data-testid="team-card">
      <div className={styles.identity}>
        {team.icon ? (
          <img className={styles.icon} src={team.icon} alt={t('iconAlt', { name: team.team_name })} width={88} height={88} />
        ) : (
          <span className={`${styles.icon} ${styles.defaultIcon}`} aria-hidden="true">
            <FlowerIcon size={56} />
          </span>
        )}
        <div className={styles.text}>
          <h1 id="team-heading" className={styles.name} data-testid="team-name">
            {team.team_name}
          </h1>
          <p className={styles.members}>{t('members', { count: team.participant_count })}</p>
          {team.description && (
            <p className={styles.description} data-testid="team-description">
              {team.description}
            </p>
          )}
        </div>
      </div>
      <dl className={styles.figures}>
        <div className={styles.figure}>
          <dt>{t('distance')}</dt>
          <dd data-testid="team-distance">{t('km', { km: format(team.distance) })}</dd>
        </div>
        <div className={`${styles.figure} ${styles.flowerFigure}`}>
          <dt>
            <FlowerIcon size={20} /> {t('flowers')}
          </dt>
          <dd data-testid="team-flowers">{format(team.blueFlowers)}</dd>
        </div>
      </dl>
    </article>
  );
}
