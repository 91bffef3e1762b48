export { VerifyPage } from './components/verify-page';
