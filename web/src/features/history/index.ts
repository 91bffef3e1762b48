export { HistoryPage } from './components/history-page';
export { ArchivedEditionPage } from './components/archived-edition-page';
