export { PayPage } from './components/pay-page';
