import { useTranslation } from 'react-i18next';
import type { Language } from '@sinilill/contracts';

/** The language the page is shown in, for data that carries both (mission names, dates). */
export function useLang(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'et';
}
