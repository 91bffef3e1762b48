export { ConfirmAccountPage } from './components/confirm-account-page';
export { LoginPage } from './components/login-page';
export { PasswordResetPage } from './components/password-reset-page';
