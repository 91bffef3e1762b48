import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './app/i18n';
import { readStoredLang } from './lib/language';
import './app/global.css';

initI18n(readStoredLang());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(<App />);
