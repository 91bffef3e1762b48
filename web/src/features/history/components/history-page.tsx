import { useTranslation } from 'react-i18next';
import { ContentPage, ContentSection, contentStyles } from '../../../components/ui/content-page';
import { formatNumber } from '../../../lib/format-number';
import { SOCIAL_GROUP_URL } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNumberFormat } from '../../../lib/use-number-format';
import { PAST_EDITIONS, type Figure, type InTextName, type PastEdition } from '../data/editions';
import { ArchiveList } from './archive-list';
import { YearIllustration } from './year-illustration';
import styles from './history.module.css';

/** A number inside running text: grouped like everywhere, with no-break spaces so it never wraps. */
function inTextNumber(value: number): string {
  return formatNumber(value).replace(/ /g, '\u00a0');
}

function FigureValue({ value }: { value: Figure['value'] }) {
  const { t } = useTranslation('history');
  const format = useNumberFormat();
  switch (value.kind) {
    case 'count':
      return <>{format(value.count)}</>;
    case 'about':
      return <>{t('values.about', { value: format(value.count) })}</>;
    case 'km':
      return <>{t('values.km', { value: format(value.km) })}</>;
    case 'routeParts':
      return <>{t('values.routeParts', { units: format(value.units), bonus: format(value.bonus) })}</>;
    case 'kmPlusKm':
      return <>{t('values.kmPlusKm', { first: format(value.first), second: format(value.second) })}</>;
  }
}

function YearSection({ edition }: { edition: PastEdition }) {
  const { t } = useTranslation('history');
  const { year } = edition;
  const values: Record<InTextName, string> = { participants: '', teams: '', route: '', travelled: '', flowers: '', units: '' };
  for (const [name, value] of Object.entries(edition.inText) as [InTextName, number][]) values[name] = inTextNumber(value);
  const figuresId = `history-${year}-figures`;
  return (
    <ContentSection id={`history-${year}`} heading={t(`years.${year}.heading`)} testId={`history-year-${year}`}>
      <div className={styles.year}>
        <div className={styles.story}>
          <p>{t(`years.${year}.p1` as const, values)}</p>
          <p>{t(`years.${year}.p2` as const, values)}</p>
          <h3 id={figuresId} className={styles.figuresHeading}>
            {t('figuresHeading', { year })}
          </h3>
          <dl className={styles.figures} aria-labelledby={figuresId}>
            {edition.figures.map((figure) => (
              <div key={figure.label} className={styles.figure}>
                <dt>{t(`figures.${figure.label}`)}</dt>
                <dd data-testid={`history-${year}-${figure.label}`}>
                  <FigureValue value={figure.value} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <YearIllustration year={year} label={t(`years.${year}.image`)} />
      </div>
    </ContentSection>
  );
}

/**
 * /history (spec §2 "History"): the editions that ran in this app and are archived (newest
 * first, each linking to /history/{year}), then one section per past edition 2021–2024 with its
 * text, its figures (spec §1, including the fixed 2023 totals) and a drawing, then the social
 * group link.
 */
export function HistoryPage() {
  const { t } = useTranslation('history');
  useDocumentTitle(t('title'));
  return (
    <ContentPage title={t('title')} intro={t('intro')} testId="history-page">
      <nav className={contentStyles.toc} aria-label={t('yearsNav')}>
        <ul className={contentStyles.tocList}>
          {PAST_EDITIONS.map(({ year }) => (
            <li key={year}>
              <a href={`#history-${year}`}>{year}</a>
            </li>
          ))}
        </ul>
      </nav>
      <ArchiveList />
      {PAST_EDITIONS.map((edition) => (
        <YearSection key={edition.year} edition={edition} />
      ))}
      <ContentSection id="history-social" heading={t('social.heading')} testId="history-social">
        <p>{t('social.text')}</p>
        <p>
          <a href={SOCIAL_GROUP_URL} className={contentStyles.action} rel="noopener" data-testid="history-social-link">
            {t('social.link')}
          </a>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
