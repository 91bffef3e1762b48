import { useTranslation } from 'react-i18next';
import { Flag } from '../../components/ui/flag';
import { otherLang } from '../../lib/language';
import { useLanguageStore } from '../language-store';
import styles from './frame.module.css';

/** The flag control of spec §2: shows the other language's flag and switches to it. */
export function LanguageToggle() {
  const { t } = useTranslation();
  const lang = useLanguageStore((s) => s.lang);
  const switchTo = useLanguageStore((s) => s.switchTo);
  const target = otherLang(lang);
  return (
    <button
      type="button"
      className={styles.langToggle}
      lang={target}
      // The name starts with the visible text (WCAG 2.5.3 label in name): "ENG – In English".
      aria-label={`${t('language.short')} – ${t('language.switchTo')}`}
      title={t('language.switchTo')}
      onClick={() => switchTo(target)}
      data-testid="lang-toggle"
    >
      <Flag lang={target} />
      <span aria-hidden="true">{t('language.short')}</span>
    </button>
  );
}
