export { paymentDecider, createPaymentDecider, PAYMENT_CURRENCY } from './decider';
export type { OrderPayment, RecordPaymentOutcome, PaymentCommand, PaymentState, PaymentStatus } from './decider';
export { feeFor, isChild, minimumAmountCents } from './fees';
export { MAX_PAYMENT_EUROS, centsToEuros, euroText, eurosToCents, parseEuros } from './money';
export { orderReference } from './reference';
