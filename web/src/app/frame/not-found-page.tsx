import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title';
import styles from './frame.module.css';

/** Shown for every address that no route matches. */
export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className={styles.notFound} aria-labelledby="not-found-title" data-testid="not-found">
      <p className={styles.notFoundCode} aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link to="/" className={styles.buttonLink}>
        {t('notFound.backHome')}
      </Link>
    </section>
  );
}
