import { useTranslation } from 'react-i18next';
import { CONTACT_EMAIL } from '../../lib/organisation';
import styles from './frame.module.css';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <p className={styles.tagline}>{t('footer.tagline')}</p>
        <div className={styles.footerColumns}>
          <section aria-labelledby="footer-contact">
            <h2 id="footer-contact" className={styles.footerHeading}>
              {t('footer.contact')}
            </h2>
            <p>
              {t('footer.writeUs')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
            </p>
          </section>
          <section aria-labelledby="footer-organiser">
            <h2 id="footer-organiser" className={styles.footerHeading}>
              {t('footer.organiser')}
            </h2>
            <p>{t('footer.organiserName')}</p>
          </section>
        </div>
      </div>
    </footer>
  );
}
