import type { Edition } from '@sinilill/domain';
import { EditionGate } from '../../../components/edition-gate';
import { editionDayTexts } from '../../../lib/edition-dates';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { FeeRules } from '../../../components/fee-rules';
import { ContentPage, ContentSection, contentStyles } from '../../../components/ui/content-page';
import { formatEuros } from '../../../lib/format-money';
import { CONTACT_EMAIL, SOCIAL_GROUP_URL, SOCIAL_LINKS } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { screenshot, type ScreenshotId } from '../screenshots';
import styles from './guide.module.css';

/** The guide's sections in order (spec §2 "Guide"); each is `guide-section-<id>`. */
const GUIDE_SECTIONS = ['register', 'payment', 'collecting', 'entering', 'progress', 'social', 'awards', 'contact'] as const;
type SectionId = (typeof GUIDE_SECTIONS)[number];

function Screenshot({ id, description }: { id: ScreenshotId; description: string }) {
  const { t } = useTranslation('guide');
  const lang = useLang();
  const image = screenshot(id, lang);
  return (
    <figure className={styles.screenshot}>
      <img
        src={image.src}
        width={image.width}
        height={image.height}
        alt={t('screenshot', { description })}
        loading="lazy"
        decoding="async"
        data-testid={`guide-screenshot-${id}`}
      />
    </figure>
  );
}

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const { t } = useTranslation('guide');
  return (
    <ContentSection id={`guide-${id}`} heading={t(`sections.${id}.heading`)} testId={`guide-section-${id}`}>
      {children}
    </ContentSection>
  );
}

/**
 * /guide (spec §2 "Guide"): how to take part, in eight sections – registering, the fee,
 * collecting and entering distance (log in at /login), following the progress (home), social
 * media, prizes (drawn among the registered, paid participants with at least one flower) and
 * contact – with screenshots of this app in the page's language. Dates, fees and the route are
 * the site edition's; its own draw rules, when it has them, follow the general text on prizes.
 */
export function GuidePage() {
  const { t } = useTranslation('guide');
  useDocumentTitle(t('title'));
  return <EditionGate testId="guide-edition">{(edition) => <GuideOf edition={edition} />}</EditionGate>;
}

function GuideOf({ edition }: { edition: Edition }) {
  const { t } = useTranslation('guide');
  const lang = useLang();
  const days = editionDayTexts(edition, lang);

  return (
    <ContentPage title={t('title')} intro={t('intro')} testId="guide-page">
      <nav className={contentStyles.toc} aria-label={t('contents')}>
        <ul className={contentStyles.tocList}>
          {GUIDE_SECTIONS.map((id) => (
            <li key={id}>
              <a href={`#guide-${id}`}>{t(`sections.${id}.heading`)}</a>
            </li>
          ))}
        </ul>
      </nav>

      <Section id="register">
        <div className={styles.withImage}>
          <div>
            <p>{t('sections.register.p1')}</p>
            <p>{t('sections.register.p2')}</p>
            <p>{t('sections.register.p3')}</p>
            <p>
              <Link to="/register" className={contentStyles.action}>
                {t('sections.register.link')}
              </Link>
            </p>
          </div>
          <Screenshot id="register" description={t('sections.register.image')} />
        </div>
      </Section>

      <Section id="payment">
        <p>{t('sections.payment.p1')}</p>
        <div className={styles.fees}>
          <FeeRules headingLevel={3} />
        </div>
        <p>{t('sections.payment.company', { amount: formatEuros(edition.fees.companyPerPersonCents, lang) })}</p>
        <p>{t('sections.payment.p2')}</p>
        <p>{t('sections.payment.p3')}</p>
      </Section>

      <Section id="collecting">
        <p>{t('sections.collecting.p1', { year: edition.year, span: days.span })}</p>
        <p>{t('sections.collecting.p2', { missions: edition.route.missions.length, length: edition.route.lapLength })}</p>
        <p>{t('sections.collecting.p3')}</p>
      </Section>

      <Section id="entering">
        <p>{t('sections.entering.p1')}</p>
        <p>{t('sections.entering.p2', { range: days.range, lateDay: days.lateDay })}</p>
        <p>
          <Link to="/login" className={contentStyles.action} data-testid="guide-login-link">
            {t('sections.entering.link')}
          </Link>
        </p>
      </Section>

      <Section id="progress">
        <p>{t('sections.progress.p1')}</p>
        <p>{t('sections.progress.p2')}</p>
        <Screenshot id="progress" description={t('sections.progress.image')} />
        <p>
          <Link to="/" className={contentStyles.action} data-testid="guide-home-link">
            {t('sections.progress.link')}
          </Link>
        </p>
      </Section>

      <Section id="social">
        <p>{t('sections.social.p1')}</p>
        <ul className={contentStyles.linkRow}>
          <li>
            <a href={SOCIAL_GROUP_URL}>{t('sections.social.group')}</a>
          </li>
          <li>
            <a href={SOCIAL_LINKS.facebook}>{t('sections.social.facebook')}</a>
          </li>
          <li>
            <a href={SOCIAL_LINKS.instagram}>{t('sections.social.instagram')}</a>
          </li>
        </ul>
      </Section>

      <Section id="awards">
        <p>{t('sections.awards.p1')}</p>
        <p>
          {t('sections.awards.p2', {
            drawOn: days.drawOn,
            time: days.drawTime,
          })}
        </p>
        {edition.drawRules && <p data-testid="guide-draw-rules">{edition.drawRules[lang]}</p>}
      </Section>

      <Section id="contact">
        <p>
          {t('sections.contact.p1')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
        </p>
        <p>
          <Trans t={t} i18nKey="sections.contact.p2" components={{ sponsors: <Link to="/sponsor" /> }} />
        </p>
      </Section>
    </ContentPage>
  );
}
