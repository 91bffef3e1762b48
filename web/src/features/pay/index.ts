export { PayPage } from './components/pay-page';
// The payment result page (/payment/{status}) is exported from ./result, so that its route
// loads it in a chunk of its own, apart from /pay's.
export type { PaymentResultPageProps } from './components/payment-result-page';
