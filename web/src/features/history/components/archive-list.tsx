import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ContentSection, contentStyles } from '../../../components/ui/content-page';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useEditions } from '../../../lib/edition';
import { useLang } from '../../../lib/use-lang';

/**
 * The editions that ran in this app and are closed (GET /api/editions `archive`), newest first,
 * each a link to its archive page /history/{year}.
 */
export function ArchiveList() {
  const { t } = useTranslation('history');
  const lang = useLang();
  const editions = useEditions();
  return (
    <ContentSection id="history-archive" heading={t('archive.heading')} testId="history-archive">
      <p>{t('archive.intro')}</p>
      {editions.status === 'loading' && <Spinner label={t('archive.loading')} color="currentColor" />}
      {editions.status === 'error' && <ErrorAlert code={editions.code} />}
      {editions.status === 'ready' &&
        (editions.editions.archive.length === 0 ? (
          <p data-testid="history-archive-empty">{t('archive.empty')}</p>
        ) : (
          <ul className={contentStyles.tocList} data-testid="history-archive-list">
            {editions.editions.archive.map((view) => (
              <li key={view.year}>
                <Link to="/history/$year" params={{ year: String(view.year) }} data-testid={`history-archive-${view.year}`}>
                  {t('archive.link', { name: view.edition.name[lang] })}
                </Link>
              </li>
            ))}
          </ul>
        ))}
    </ContentSection>
  );
}
