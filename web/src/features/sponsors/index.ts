export { SponsorsPage } from './components/sponsors-page';
