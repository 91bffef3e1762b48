import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { Panel } from '../../../components/ui/panel';
import { EditionGate } from '../../../components/edition-gate';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { queryKeys } from '../../../lib/query-client';
import { useFetched } from '../../../lib/use-fetched';
import { getDraw } from '../api/draw';

/** The draw's instant as people in Tallinn read it, in the page's language. */
function tallinnTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'et-EE', {
    dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Tallinn',
  }).format(new Date(iso));
}

/**
 * The edition's planned draw (its local `YYYY-MM-DDTHH:mm`, spec §4: 5 May 2025 17:00 in Tallinn)
 * as the same words as tallinnTime: the wall-clock value is formatted as it stands (read as UTC,
 * shown in UTC), so no offset of the browser's or of summer time enters it.
 */
function plannedTime(localDateTime: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'et-EE', {
    dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC',
  }).format(new Date(`${localDateTime}:00Z`));
}

/**
 * /loos: the prize draw anyone can check. Public. Shows the commitment (before
 * the draw), then the revealed seed, the eligible count and list hash, the procedure in words,
 * the winners (first name and team only), and how to recompute it with scripts/verify-draw.mjs.
 * Before anything is published it says when the draw takes place (the edition's data).
 */
export function DrawPage() {
  const { t, i18n } = useTranslation('draw');
  useDocumentTitle(t('title'));
  const draw = useFetched(queryKeys.draw, getDraw);

  return (
    <Panel heading={t('title')} headingId="draw-heading" testId="draw-page">
      <p>{t('intro')}</p>
      {draw.status === 'error' && <ErrorAlert code={draw.code} />}
      {draw.status === 'loading' && <p role="status">{t('loading')}</p>}
      {draw.status === 'ready' && (
        <>
          {draw.data.status === 'none' ? (
            <>
              <EditionGate loading={null}>
                {(edition) => <p data-testid="draw-planned">{t('planned', { when: plannedTime(edition.prizeDraw, i18n.language) })}</p>}
              </EditionGate>
              <p data-testid="draw-none">{t('none')}</p>
            </>
          ) : (
            <dl data-testid="draw-facts">
              <dt>{t('drawAt')}</dt>
              <dd data-testid="draw-at">{tallinnTime(draw.data.drawAt!, i18n.language)}</dd>
              <dt>{t('commitment')}</dt>
              <dd><code data-testid="draw-commitment" style={{ overflowWrap: 'anywhere' }}>{draw.data.commitment}</code></dd>
              <dt>{t('winnersCount')}</dt>
              <dd>{draw.data.winnersCount}</dd>
              {draw.data.status === 'drawn' && (
                <>
                  <dt>{t('seed')}</dt>
                  <dd><code data-testid="draw-seed" style={{ overflowWrap: 'anywhere' }}>{draw.data.seed}</code></dd>
                  <dt>{t('eligibleCount')}</dt>
                  <dd data-testid="draw-eligible-count">{draw.data.eligibleCount}</dd>
                  <dt>{t('eligibleListHash')}</dt>
                  <dd><code style={{ overflowWrap: 'anywhere' }}>{draw.data.eligibleListHash}</code></dd>
                </>
              )}
            </dl>
          )}
          {draw.data.status === 'drawn' && (
            <section aria-labelledby="draw-winners-heading">
              <h2 id="draw-winners-heading">{t('winners')}</h2>
              <ol data-testid="draw-winners">
                {draw.data.winners.map((w) => (
                  <li key={w.participantId}>{t('winner', { name: w.firstName ?? t('erased'), team: w.teamName ?? '—' })}</li>
                ))}
              </ol>
            </section>
          )}
          <section aria-labelledby="draw-procedure-heading">
            <h2 id="draw-procedure-heading">{t('procedureHeading')}</h2>
            <p>{t('eligibility')}</p>
            <ol>
              <li>{t('step1')}</li>
              <li>{t('step2')}</li>
              <li>{t('step3')}</li>
            </ol>
            <p>{t('check')}</p>
            <pre style={{ whiteSpace: 'pre-wrap' }}><code>node scripts/verify-draw.mjs {`${window.location.origin}/api/draw`}</code></pre>
          </section>
        </>
      )}
    </Panel>
  );
}
