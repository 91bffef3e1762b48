import { useTranslation } from 'react-i18next';
import type { Lang } from './language';

/** The language the page is shown in, for data that carries both (mission names, dates). */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'et';
}
