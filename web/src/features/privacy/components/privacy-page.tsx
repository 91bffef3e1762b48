import { useTranslation } from 'react-i18next';
import { ContentPage, ContentSection } from '../../../components/ui/content-page';
import { CONTACT_EMAIL, ORGANISATION_NAME, REGISTRY_CODE } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';

const DATA_ITEMS = ['account', 'password', 'team', 'entries', 'payment', 'browser'] as const;
const VISIBILITY_ITEMS = ['public', 'team', 'admins'] as const;
const TEXT_SECTIONS = ['security', 'erasure', 'retention', 'rights'] as const;

function Email() {
  return <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;
}

/**
 * /privacy (spec §2 footer "privacy policy link"): what the app stores (name, e-mail, birth
 * year, gender, newsletter choice, team, entries, payment status; a password hash; the browser's
 * language and login key), why, who sees it, how it is protected (per-person encryption keys)
 * and erased (crypto-shredding: the key is destroyed), and whom to write to.
 */
export function PrivacyPage() {
  const { t } = useTranslation('privacy');
  useDocumentTitle(t('title'));
  return (
    <ContentPage title={t('title')} intro={t('intro')} testId="privacy-page">
      <ContentSection id="privacy-controller" heading={t('controller.heading')}>
        <p>
          {t('controller.text', { name: ORGANISATION_NAME, code: REGISTRY_CODE })} <Email />
        </p>
      </ContentSection>
      <ContentSection id="privacy-data" heading={t('data.heading')} testId="privacy-data">
        <ul>
          {DATA_ITEMS.map((item) => (
            <li key={item}>{t(`data.${item}`)}</li>
          ))}
        </ul>
      </ContentSection>
      <ContentSection id="privacy-purpose" heading={t('purpose.heading')}>
        <p>{t('purpose.text')}</p>
      </ContentSection>
      <ContentSection id="privacy-visibility" heading={t('visibility.heading')}>
        <ul>
          {VISIBILITY_ITEMS.map((item) => (
            <li key={item}>{t(`visibility.${item}`)}</li>
          ))}
        </ul>
      </ContentSection>
      {TEXT_SECTIONS.map((id) => (
        <ContentSection key={id} id={`privacy-${id}`} heading={t(`${id}.heading`)} testId={`privacy-${id}`}>
          <p>{t(`${id}.text`)}</p>
        </ContentSection>
      ))}
      <ContentSection id="privacy-contact" heading={t('contact.heading')}>
        <p>
          {t('contact.text')} <Email />
        </p>
      </ContentSection>
    </ContentPage>
  );
}
