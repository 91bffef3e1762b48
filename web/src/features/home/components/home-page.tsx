import type { StatsAnswer } from '@sinilill/contracts';
import type { Edition } from '@sinilill/domain';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadRouteMap } from '../../../components/ui/route-map';
import formStyles from '../../../components/ui/form/form.module.css';
import { LoadingPanel } from '../../../components/ui/spinner';
import { siteMoment, useEditions, type EditionView, type SiteMoment } from '../../../lib/edition';
import { formatDay } from '../../../lib/format-date';
import { useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { useStats, type StatsState } from '../../../lib/use-stats';
import { MissingFlowers } from './missing-flowers';
import { RouteMapSection } from './route-map-section';
import { RouteProgress } from './route-progress';
import { StatBoxes } from './stat-boxes';
import { TopTeams } from './top-teams';
import { Welcome } from './welcome';
import styles from './home.module.css';
import welcomeStyles from './welcome.module.css';

/**
 * The home page (spec §2 "Home") follows the editions' life cycle (GET /api/editions):
 * - while an edition is the site's (registration, the event, late entries, results), the spec's
 *   order: welcome and the edition's phase, missing flowers, the interactive map, the four totals,
 *   top teams, and the route bar with every team, all of that edition;
 * - between editions: when the next edition's registration opens (or that it is still to be
 *   announced), and the last edition's results as archived, with a link to its archive page;
 * - before any edition has run: when the first one's registration opens.
 */
export function HomePage() {
  const { t } = useTranslation('home');
  useDocumentTitle();
  const editions = useEditions();
  const state = useStats();
  const { settings } = useSettings();
  // The map's chunk downloads while the stats load, not after.
  useEffect(preloadRouteMap, []);

  if (editions.status === 'loading') return <LoadingPanel label={t('stats.loading')} testId="home-loading" />;
  if (editions.status === 'error') {
    return (
      <div className={styles.home}>
        <div role="alert" className={styles.error} data-testid="home-edition-error">
          <p>{t('editionError')}</p>
          <button type="button" className={formStyles.button} onClick={editions.reload}>
            {t('editionRetry')}
          </button>
        </div>
      </div>
    );
  }
  const moment = siteMoment(editions.editions);
  if (moment.kind !== 'edition') return <BetweenEditions moment={moment} state={state} />;
  const { edition } = moment.current;

  return (
    <div className={styles.home} data-edition={edition.year}>
      {/* The phase follows the app's clock: the stats' `today`, not the browser's date. */}
      <Welcome
        edition={edition}
        today={state.stats.today}
        entriesOpen={settings ? settings.entriesOpen : null}
        registrationEnabled={settings ? settings.registrationEnabled : null}
      />
      <EditionSections edition={edition} state={state} />
    </div>
  );
}

/** The running edition's sections (missing flowers, map, totals, top teams, route bar). */
function EditionSections({ edition, state }: { edition: Edition; state: StatsState }) {
  const { t } = useTranslation('home');
  if (state.status === 'loading') return <LoadingPanel label={t('stats.loading')} testId="stats-loading" />;
  return (
    <>
      {state.status === 'error' && <StatsError />}
      <MissingFlowers teams={state.stats.teams} edition={edition} />
      <RouteMapSection teams={state.stats.teams} route={edition.route} />
      <StatBoxes stats={state.stats} />
      <TopTeams teams={state.stats.teams} today={state.stats.today} goldFrom={edition.flowers.maxPerLapBase} />
      <RouteProgress teams={state.stats.teams} route={edition.route} teamDots={edition.teamDots} />
    </>
  );
}

function StatsError() {
  const { t } = useTranslation('home');
  return (
    <p className={styles.error} role="alert" data-testid="stats-error">
      {t('stats.error')}
    </p>
  );
}

/**
 * Between editions (and before the first): when the next edition's registration opens, in the
 * page's language, and the last edition's results, archived (its totals and top teams — the
 * stats still answer for it — and a link to /history/{year}).
 */
function BetweenEditions({ moment, state }: { moment: Exclude<SiteMoment, { kind: 'edition' }>; state: StatsState }) {
  const next = moment.kind === 'none' ? null : moment.next;
  const last = moment.kind === 'between' ? moment.last : null;
  return (
    <div className={styles.home} data-edition-moment={moment.kind}>
      <Welcome edition={null} today="" entriesOpen={null} registrationEnabled={null} notice={<NextEditionNotice next={next} />} />
      {last && <ArchivedResults last={last} state={state} />}
    </div>
  );
}

/** When the next edition's registration opens and when it runs; or that it is still to be announced. */
export function NextEditionNotice({ next }: { next: EditionView | null }) {
  const { t } = useTranslation('home');
  const lang = useLang();
  return (
    <div className={welcomeStyles.aftermath} role="note" aria-labelledby="phase-heading" data-testid="edition-next" data-year={next?.year}>
      {next ? (
        <>
          <h2 id="phase-heading" className={welcomeStyles.aftermathHeading}>
            {t('between.opensHeading', { name: next.edition.name[lang], date: formatDay(next.edition.registrationOpens, lang) })}
          </h2>
          <p>{t('between.opensText', { start: formatDay(next.edition.startDate, lang), end: formatDay(next.edition.endDate, lang) })}</p>
        </>
      ) : (
        <h2 id="phase-heading" className={welcomeStyles.aftermathHeading}>
          {t('between.notAnnounced')}
        </h2>
      )}
    </div>
  );
}

/** The last edition's results, marked as archived, with its totals, top teams and archive link. */
function ArchivedResults({ last, state }: { last: EditionView; state: StatsState }) {
  const { t } = useTranslation('home');
  const lang = useLang();
  const name = last.edition.name[lang];
  return (
    <section aria-labelledby="archived-heading" data-testid="home-archived" data-year={last.year}>
      <div className={welcomeStyles.aftermath}>
        <h2 id="archived-heading" className={welcomeStyles.aftermathHeading}>
          {t('between.archivedHeading', { name })}
        </h2>
        <p>{t('between.archivedText', { name })}</p>
        <p>
          <Link to="/history/$year" params={{ year: String(last.year) }} className={welcomeStyles.phaseLink} data-testid="home-archived-link">
            {t('between.archiveLink', { year: last.year })}
          </Link>
        </p>
      </div>
      {state.status === 'loading' ? (
        <LoadingPanel label={t('stats.loading')} testId="stats-loading" />
      ) : (
        <ArchivedFigures stats={state.stats} failed={state.status === 'error'} goldFrom={last.edition.flowers.maxPerLapBase} />
      )}
    </section>
  );
}

function ArchivedFigures({ stats, failed, goldFrom }: { stats: StatsAnswer; failed: boolean; goldFrom: number }) {
  return (
    <>
      {failed && <StatsError />}
      <StatBoxes stats={stats} />
      <TopTeams teams={stats.teams} today={stats.today} goldFrom={goldFrom} />
    </>
  );
}
