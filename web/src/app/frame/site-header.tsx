import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../components/ui/flower-icon';
import { LanguageToggle } from './language-toggle';
import styles from './frame.module.css';

/** The top bar (spec §2 "Navigation and frame"): links to the pages that exist so far. */
export function SiteHeader() {
  const { t } = useTranslation();
  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        <nav className={styles.nav} aria-label={t('mainNav')}>
          <Link to="/" className={styles.brand} aria-label={t('brandHome')}>
            <FlowerIcon size={30} className={styles.brandFlower} />
            <span>{t('brand')}</span>
          </Link>
        </nav>
        <LanguageToggle />
      </div>
    </header>
  );
}
