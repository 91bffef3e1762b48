import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CONTACT_EMAIL, MAIN_SUPPORTER, ORGANISATION_NAME, REGISTRY_CODE, SOCIAL_LINKS } from '../../lib/organisation';
import styles from './frame.module.css';

function FacebookIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H7.9v3h2.6V21z" />
    </svg>
  );
}

function InstagramIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="3.5" y="3.5" width="17" height="17" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.2" cy="6.8" r="1" fill="currentColor" stroke="none" />
    </svg>
  );
}

/**
 * The footer of spec §2 "Navigation and frame": the main supporter's logo link, the contact
 * address, the social links, the organiser's name and registry code, and the privacy policy.
 */
export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className={styles.footer} data-testid="site-footer">
      <div className={styles.footerInner}>
        <p className={styles.tagline}>{t('footer.tagline')}</p>
        <div className={styles.footerColumns}>
          <section aria-labelledby="footer-supporter">
            <h2 id="footer-supporter" className={styles.footerHeading}>
              {t('footer.mainSupporter')}
            </h2>
            <a href={MAIN_SUPPORTER.url} className={styles.supporterLogo} data-testid="footer-sponsor">
              <img src={MAIN_SUPPORTER.logo} alt={t('footer.mainSupporterLink', { name: MAIN_SUPPORTER.name })} width={180} height={60} />
            </a>
            <p>
              <Link to="/sponsor" data-testid="footer-sponsors">
                {t('footer.allSupporters')}
              </Link>
            </p>
          </section>
          <section aria-labelledby="footer-contact">
            <h2 id="footer-contact" className={styles.footerHeading}>
              {t('footer.contact')}
            </h2>
            <p>
              {t('footer.writeUs')}{' '}
              <a href={`mailto:${CONTACT_EMAIL}`} data-testid="footer-email">
                {CONTACT_EMAIL}
              </a>
            </p>
          </section>
          <section aria-labelledby="footer-social">
            <h2 id="footer-social" className={styles.footerHeading}>
              {t('footer.social')}
            </h2>
            <ul className={styles.socialLinks}>
              <li>
                <a href={SOCIAL_LINKS.facebook} data-testid="footer-facebook">
                  <FacebookIcon />
                  {t('footer.facebook')}
                </a>
              </li>
              <li>
                <a href={SOCIAL_LINKS.instagram} data-testid="footer-instagram">
                  <InstagramIcon />
                  {t('footer.instagram')}
                </a>
              </li>
            </ul>
          </section>
          <section aria-labelledby="footer-organiser">
            <h2 id="footer-organiser" className={styles.footerHeading}>
              {t('footer.organiser')}
            </h2>
            <p data-testid="footer-organiser">
              {ORGANISATION_NAME}
              <br />
              {t('footer.registryCode', { code: REGISTRY_CODE })}
            </p>
            <p>
              <Link to="/privacy" data-testid="footer-privacy">
                {t('footer.privacy')}
              </Link>
            </p>
          </section>
        </div>
      </div>
    </footer>
  );
}
