import type { TeamAnswer } from '@sinilill/contracts';
import { useTranslation } from 'react-i18next';
import { FlowerStatIcon, PeopleIcon, RouteIcon, StatBoxes } from '../../../components/ui/stat-boxes';

/** The team's three figures (spec §2): members, distance (rounded km), blue flowers. */
export function TeamStats({ team }: { team: TeamAnswer }) {
  const { t } = useTranslation('team');
  return (
    <StatBoxes
      heading={t('stats.heading')}
      headingId="team-stats-heading"
      testIdPrefix="team-stat-"
      boxes={[
        { id: 'members', label: t('stats.members'), value: team.participant_count, icon: <PeopleIcon /> },
        { id: 'distance', label: t('stats.distance'), value: team.distance, icon: <RouteIcon /> },
        { id: 'flowers', label: t('stats.flowers'), value: team.blueFlowers, icon: <FlowerStatIcon /> },
      ]}
    />
  );
}
