/** The entry: i18n first (the first page's texts in the page's language), then the app. */
import { langFromAddress } from './app/lang-from-address';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './app/i18n';
import { readStoredLang } from './lib/language';
import './app/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// A link's `?lang=` (mails carry one) wins, even where storage refused to keep it.
const lang = langFromAddress ?? readStoredLang();
// The first render waits for the first page's texts (in English, a chunk of their own).
void initI18n(lang).then(() => createRoot(container).render(<App />));
