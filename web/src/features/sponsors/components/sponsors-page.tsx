import type { Edition } from '@sinilill/domain';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { EditionGate } from '../../../components/edition-gate';
import { ContentPage, ContentSection } from '../../../components/ui/content-page';
import { formatEuros } from '../../../lib/format-money';
import { CONTACT_EMAIL } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { SPONSORS, type Sponsor } from '../sponsors';
import styles from './sponsors.module.css';

function SponsorCard({ sponsor }: { sponsor: Sponsor }) {
  const { t } = useTranslation('sponsors');
  const lang = useLang();
  const headingId = `sponsor-${sponsor.id}`;
  return (
    <li className={sponsor.main ? `${styles.card} ${styles.main}` : styles.card} data-testid="sponsor-card">
      <article aria-labelledby={headingId} className={styles.cardInner}>
        {/* The logo repeats the text link below for pointer users; keyboard and screen readers use that one. */}
        <a href={sponsor.link} className={styles.logoLink} tabIndex={-1} aria-hidden="true">
          <img src={sponsor.logo} alt="" width={240} height={80} className={styles.logo} />
        </a>
        <div className={styles.text}>
          {sponsor.main && <p className={styles.badge}>{t('list.main')}</p>}
          <h3 id={headingId} className={styles.name}>
            {sponsor.name}
          </h3>
          <p className={styles.description}>{sponsor.description[lang]}</p>
          <a href={sponsor.link} className={styles.visit} data-testid="sponsor-link">
            {t('list.visit', { name: sponsor.name })}
          </a>
        </div>
      </article>
    </li>
  );
}

function Email() {
  return <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;
}

/**
 * /sponsor (spec §2 "Supporters"): thanks, the seven sponsors (logo, link, description; the main
 * supporter first), how to support and how to work together, with the contact address.
 */
export function SponsorsPage() {
  const { t } = useTranslation('sponsors');
  useDocumentTitle(t('title'));
  return <EditionGate testId="sponsors-edition">{(edition) => <SponsorsOf edition={edition} />}</EditionGate>;
}

function SponsorsOf({ edition }: { edition: Edition }) {
  const { t } = useTranslation('sponsors');
  const lang = useLang();
  return (
    <ContentPage title={t('title')} intro={t('thanks.p1')} testId="sponsors-page">
      <ContentSection id="sponsors-list" heading={t('list.heading', { year: edition.year })}>
        <ul className={styles.grid}>
          {SPONSORS.map((sponsor) => (
            <SponsorCard key={sponsor.id} sponsor={sponsor} />
          ))}
        </ul>
      </ContentSection>
      <div className={styles.columns}>
        <ContentSection id="sponsors-support" heading={t('support.heading')} testId="sponsors-support">
          <p>
            {t('support.p1')} <Link to="/pay">{t('support.payLink')}</Link>
          </p>
          <p>
            {t('support.p2')} <Email />
          </p>
        </ContentSection>
        <ContentSection id="sponsors-collaboration" heading={t('collaboration.heading')} testId="sponsors-collaboration">
          <p>{t('collaboration.p1', { amount: formatEuros(edition.fees.companyPerPersonCents, lang) })}</p>
          <p>
            {t('collaboration.p2')} <Email />
          </p>
        </ContentSection>
      </div>
    </ContentPage>
  );
}
