import type { StatsAnswer } from '@sinilill/contracts';
import { useTranslation } from 'react-i18next';
import { FlowerStatIcon, PeopleIcon, RouteIcon, StatBoxes as Boxes, TeamsIcon } from '../../../components/ui/stat-boxes';

/** The four totals of spec §2 "Home", each number with a space between thousands. */
export function StatBoxes({ stats }: { stats: StatsAnswer }) {
  const { t } = useTranslation('home');
  return (
    <Boxes
      heading={t('stats.heading')}
      headingId="stats-heading"
      testIdPrefix="stat-"
      boxes={[
        { id: 'participants', label: t('stats.participants'), value: stats.totalParticipants, icon: <PeopleIcon /> },
        { id: 'teams', label: t('stats.teams'), value: stats.teams.length, icon: <TeamsIcon /> },
        { id: 'distance', label: t('stats.distance'), value: stats.totalDistance, icon: <RouteIcon /> },
        { id: 'flowers', label: t('stats.flowers'), value: stats.totalBlueFlowers, icon: <FlowerStatIcon /> },
      ]}
    />
  );
}
