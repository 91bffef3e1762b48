import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../components/ui/flower-icon';
import { loadPaymentInfo, useIsPaid } from '../../lib/payment-info';
import { useSessionStore } from '../../lib/session-store';
import { selectRegistrationEnabled, useSettings } from '../../lib/settings';
import { LanguageToggle } from './language-toggle';
import { NotPaidBanner } from './not-paid-banner';
import { OfflineBanner } from './offline-banner';
import styles from './frame.module.css';

/** The links every visitor sees (spec §2 "Bar links"), after the brand. */
const PUBLIC_LINKS = [
  { to: '/guide', label: 'nav.guide', testId: 'nav-guide' },
  { to: '/sponsor', label: 'nav.sponsor', testId: 'nav-sponsor' },
  { to: '/history', label: 'nav.history', testId: 'nav-history' },
  { to: '/participants', label: 'nav.participants', testId: 'nav-participants' },
  { to: '/news', label: 'nav.news', testId: 'nav-news' },
] as const;

/**
 * The top bar (spec §2 "Navigation and frame"): the brand (/), the public pages (/guide,
 * /sponsor, /history, /participants, /news), then the links the visitor may use now (/team with
 * a team, /admin for admins, /register while registration is open and nobody is logged in, /pay
 * as "donate" once paid, /account, /login, logout), the flag control, and the red not-paid
 * banner. Paid or not is the payment info (lib/payment-info.ts, loaded here when the app
 * starts with a stored session), the token's claim until it arrives. On small screens the links
 * fold into a menu button.
 */
export function SiteHeader() {
  const { t } = useTranslation();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const identity = useSessionStore((s) => s.identity);
  const logout = useSessionStore((s) => s.logout);
  const isPaid = useIsPaid();
  // An account without a participant (an administrator) has no fee to pay and cannot pay one.
  const hasParticipant = useSessionStore((s) => s.identity.participantId !== null);
  const registrationEnabled = selectRegistrationEnabled(useSettings());
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [menuOpen, setMenuOpen] = useState(false);

  // At app start with a stored session; later logins and logouts reach the store directly.
  useEffect(() => {
    void loadPaymentInfo();
  }, []);
  // A followed link closes the menu (also when the page stays the same).
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        <nav className={styles.nav} aria-label={t('mainNav')}>
          <Link to="/" className={styles.brand} aria-label={t('brandHome')}>
            <FlowerIcon size={30} className={styles.brandFlower} />
            <span>{t('brand')}</span>
          </Link>
          <button
            type="button"
            className={styles.menuButton}
            aria-expanded={menuOpen}
            aria-controls="main-menu"
            onClick={() => setMenuOpen((open) => !open)}
            data-testid="menu-toggle"
          >
            <span className={styles.menuIcon} aria-hidden="true" />
            {t('nav.menu')}
          </button>
          <ul id="main-menu" className={menuOpen ? `${styles.links} ${styles.linksOpen}` : styles.links}>
            {PUBLIC_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={styles.navLink} onClick={close} data-testid={link.testId}>
                  {t(link.label)}
                </Link>
              </li>
            ))}
            {isAuthenticated && identity.teamId !== null && (
              <li>
                <Link to="/team" className={styles.navLink} onClick={close} data-testid="nav-team">
                  {t('nav.team')}
                </Link>
              </li>
            )}
            {isAuthenticated && identity.isAdmin && (
              <li>
                <Link to="/admin" className={styles.navLink} onClick={close} data-testid="nav-admin">
                  {t('nav.admin')}
                </Link>
              </li>
            )}
            {!isAuthenticated && registrationEnabled && (
              <li>
                <Link to="/register" className={styles.navLink} onClick={close} data-testid="nav-register">
                  {t('nav.register')}
                </Link>
              </li>
            )}
            {isAuthenticated && hasParticipant && isPaid && (
              <li>
                <Link to="/pay" className={styles.navLink} onClick={close} data-testid="donate-link">
                  {t('nav.donate')}
                </Link>
              </li>
            )}
            {isAuthenticated && (
              <li>
                <Link to="/account" className={styles.navLink} onClick={close} data-testid="nav-account">
                  {t('nav.account')}
                </Link>
              </li>
            )}
            {!isAuthenticated && (
              <li>
                <Link to="/login" className={styles.navLink} onClick={close} data-testid="nav-login">
                  {t('nav.login')}
                </Link>
              </li>
            )}
            {isAuthenticated && (
              <li>
                <Link
                  to="/"
                  className={styles.navLink}
                  onClick={() => {
                    close();
                    logout();
                  }}
                  data-testid="nav-logout"
                >
                  {t('nav.logout')}
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <LanguageToggle />
      </div>
      {isAuthenticated && hasParticipant && !isPaid && <NotPaidBanner />}
      <OfflineBanner />
    </header>
  );
}
