export { RegisterPage } from './components/register-page';
export { SuccessPage } from './components/success-page';
