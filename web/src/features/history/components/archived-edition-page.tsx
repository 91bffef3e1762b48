import type { Language } from '@sinilill/contracts';
import { Link } from '@tanstack/react-router';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentPage, ContentSection, contentStyles } from '../../../components/ui/content-page';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { ErrorBoundary } from '../../../components/ui/error-boundary';
import { RouteMap, ROUTE_MAP_ASPECT_RATIO, type RouteMapLabels, type RouteMapMission } from '../../../components/ui/route-map';
import { LoadingPanel, Spinner } from '../../../components/ui/spinner';
import { getArchivedEdition, type ArchivedEditionAnswer } from '../../../lib/edition';
import { formatEuros } from '../../../lib/format-money';
import { formatNumber } from '../../../lib/format-number';
import { queryKeys } from '../../../lib/query-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetched } from '../../../lib/use-fetched';
import { useLang } from '../../../lib/use-lang';
import { archiveTeamRows, missionsAtEnd, type ArchiveTeamRow } from '../utils/archive-view';
import styles from './history.module.css';

/**
 * /history/{year}: a closed edition as it ended (GET /api/history/editions/:year): its totals
 * (participants, teams, km, blue flowers, money raised; numbers in the page's language), the
 * teams in order with their place on the route, the route map at the end and the prize draw's
 * winners. An edition that is not archived answers NOT_FOUND, shown as such with a way back.
 */
export function ArchivedEditionPage({ year }: { year: number }) {
  const { t } = useTranslation('history');
  const archived = useFetched(queryKeys.archivedEdition(year), (signal) => getArchivedEdition(year, signal));
  const lang = useLang();
  const name = archived.status === 'ready' ? archived.data.name[lang] : String(year);
  useDocumentTitle(t('archive.title', { name }));
  if (archived.status === 'loading') return <LoadingPanel label={t('archive.pageLoading')} testId="archive-loading" />;
  if (archived.status === 'error') {
    return (
      <ContentPage title={t('archive.title', { name })} testId="archive-page-error">
        {archived.code === 'NOT_FOUND' ? <p data-testid="archive-not-found">{t('archive.notFound')}</p> : <ErrorAlert code={archived.code} />}
        <BackLink />
      </ContentPage>
    );
  }
  return <ArchivedEditionView archived={archived.data} />;
}

function BackLink() {
  const { t } = useTranslation('history');
  return (
    <p>
      <Link to="/history" className={contentStyles.action} data-testid="archive-back">
        {t('archive.back')}
      </Link>
    </p>
  );
}

/** The archive page's content for a loaded answer (see ArchivedEditionPage). */
export function ArchivedEditionView({ archived }: { archived: ArchivedEditionAnswer }) {
  const { t } = useTranslation('history');
  const lang = useLang();
  const name = archived.name[lang];
  return (
    <ContentPage title={t('archive.title', { name })} intro={t('archive.intro2', { name })} testId="archive-page">
      <ContentSection id="archive-figures" heading={t('archive.figuresHeading')} testId="archive-figures">
        <ArchiveFigures figures={archived.figures} lang={lang} />
      </ContentSection>
      <ContentSection id="archive-teams" heading={t('archive.teamsHeading')} testId="archive-teams">
        <ArchiveTeamsTable archived={archived} />
      </ContentSection>
      <ContentSection id="archive-map" heading={t('archive.mapHeading')} testId="archive-map">
        <ArchiveMap archived={archived} />
      </ContentSection>
      <ContentSection id="archive-draw" heading={t('archive.drawHeading')} testId="archive-draw">
        <ArchiveDraw draw={archived.draw} />
      </ContentSection>
      <BackLink />
    </ContentPage>
  );
}

/** The final totals as a definition list; km with at most two decimals, money in euros. */
export function ArchiveFigures({ figures, lang }: { figures: ArchivedEditionAnswer['figures']; lang: Language }) {
  const { t } = useTranslation('history');
  const items = [
    { id: 'participants', value: formatNumber(figures.participants, { lang }) },
    { id: 'teams', value: formatNumber(figures.teams, { lang }) },
    { id: 'km', value: t('archive.km', { value: formatNumber(figures.km, { lang, decimals: Number.isInteger(figures.km) ? 0 : 2 }) }) },
    { id: 'flowers', value: formatNumber(figures.flowers, { lang }) },
    { id: 'raised', value: formatEuros(figures.raisedCents, lang) },
  ] as const;
  return (
    <dl className={styles.figures}>
      {items.map((item) => (
        <div key={item.id} className={styles.figure}>
          <dt>{t(`archive.figures.${item.id}`)}</dt>
          <dd data-testid={`archive-figure-${item.id}`}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The teams, most km first (the table library of the participants page; sortable, searchable by name). */
function ArchiveTeamsTable({ archived }: { archived: ArchivedEditionAnswer }) {
  const { t } = useTranslation('history');
  const lang = useLang();
  const rows = useMemo(() => archiveTeamRows(archived, lang), [archived, lang]);
  const columns = useMemo((): DataTableColumn<ArchiveTeamRow>[] => {
    const number = (id: 'km' | 'flowers' | 'prestige', header: string, decimals = 0): DataTableColumn<ArchiveTeamRow> => ({
      id,
      header,
      value: (row) => row[id],
      cell: (row) => formatNumber(row[id], { lang, decimals: decimals && !Number.isInteger(row[id]) ? decimals : 0 }),
      align: 'end',
      sortDescFirst: true,
    });
    return [
      { id: 'teamName', header: t('archive.table.team'), value: (row) => row.teamName, rowHeader: true },
      number('km', t('archive.table.km'), 2),
      number('flowers', t('archive.table.flowers')),
      number('prestige', t('archive.table.prestige')),
      {
        id: 'position',
        header: t('archive.table.position'),
        value: (row) => row.lapPercent,
        cell: (row) =>
          t('archive.table.positionValue', {
            mission: row.missionName || String(row.missionId),
            percent: `${formatNumber(row.lapPercent, { lang, decimals: Number.isInteger(row.lapPercent) ? 0 : 1 })}%`,
          }),
        searchText: (row) => row.missionName,
      },
    ];
  }, [t, lang]);
  return (
    <DataTable
      data={rows}
      columns={columns}
      getRowId={(row) => String(row.teamId)}
      testId="archive-teams-table"
      caption={t('archive.teamsHeading')}
      initialSort={{ id: 'km', desc: true }}
      rowNumbers
      searchable
    />
  );
}

/** The route map as the edition ended: each mission's teams at the end and whether its flower was reached. */
function ArchiveMap({ archived }: { archived: ArchivedEditionAnswer }) {
  const { t } = useTranslation('history');
  const lang = useLang();
  const { route } = archived;
  const states = useMemo(() => missionsAtEnd(route, archived.teams), [route, archived.teams]);
  const missions = route.missions.map((mission, index): RouteMapMission => {
    const state = states[index] ?? { teamCount: 0, reached: false };
    return {
      id: mission.id,
      region: mission.name.en,
      ...(mission.position ? { position: mission.position } : {}),
      teamCount: state.teamCount,
      reached: state.reached,
      label: `${mission.id}. ${mission.name[lang]}: ${t('archive.missionTeams', { count: state.teamCount })}`,
    };
  });
  const labels: RouteMapLabels = {
    description: t('archive.mapDescription', { count: route.missions.length }),
    markers: t('archive.map.markers'),
    controls: t('archive.map.controls'),
    zoomIn: t('archive.map.zoomIn'),
    zoomOut: t('archive.map.zoomOut'),
    reset: t('archive.map.reset'),
    legend: t('archive.map.legend'),
    legendRegion: t('archive.map.legendRegion'),
    legendRoute: t('archive.map.legendRoute'),
    legendReached: t('archive.map.legendReached'),
    legendNotReached: t('archive.map.legendNotReached'),
    legendTeams: t('archive.map.legendTeams'),
    detailsEmpty: t('archive.mapDescription', { count: route.missions.length }),
    notOnMap: t('archive.map.notOnMap'),
  };
  const renderDetails = (missionId: number) => {
    const mission = route.missions.find((m) => m.id === missionId);
    const state = states.find((s) => s.id === missionId);
    if (!mission || !state) return null;
    return (
      <p>
        <strong>{`${mission.id}. ${mission.name[lang]}`}</strong> {mission.description[lang]} {t('archive.missionTeams', { count: state.teamCount })}
      </p>
    );
  };
  return (
    <ErrorBoundary testId="archive-map-error">
      <Suspense
        fallback={
          <div style={{ aspectRatio: ROUTE_MAP_ASPECT_RATIO }}>
            <Spinner label={t('archive.mapLoading')} />
          </div>
        }
      >
        <RouteMap missions={missions} labels={labels} renderDetails={renderDetails} headingId="archive-map" />
      </Suspense>
    </ErrorBoundary>
  );
}

/** The prize draw's winners (first names and teams as published), or that there was no draw. */
export function ArchiveDraw({ draw }: { draw: ArchivedEditionAnswer['draw'] }) {
  const { t } = useTranslation('history');
  if (draw === null) return <p data-testid="archive-no-draw">{t('archive.noDraw')}</p>;
  if (draw.winners.length === 0) return <p data-testid="archive-no-winners">{t('archive.noWinners')}</p>;
  return (
    <ol data-testid="archive-winners">
      {draw.winners.map((winner, index) => (
        <li key={index}>{t('archive.winner', { name: winner.participantName ?? t('archive.erased'), team: winner.teamName })}</li>
      ))}
    </ol>
  );
}
