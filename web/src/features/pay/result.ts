/** The payment result page on its own, for a lazily loaded route (/payment/{status}). */
export { PaymentResultPage, type PaymentResultPageProps } from './components/payment-result-page';
