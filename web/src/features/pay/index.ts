export { PayPage } from './components/pay-page';
// The payment result page (/payment/{status}) is exported from ./result, so that its route can
// load it lazily without pulling it into this eagerly loaded entry.
export type { PaymentResultPageProps } from './components/payment-result-page';
