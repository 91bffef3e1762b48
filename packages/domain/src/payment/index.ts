export { paymentDecider, createPaymentDecider, PAYMENT_CURRENCY, REFUND_REASON_MAX } from './decider';
export type { OrderPayment, RecordPaymentOutcome, RefundPayment, TeamFeeFacts, PaymentCommand, PaymentState, PaymentStatus } from './decider';
export { feeFor, isChild, minimumAmountCents, participantFee, teamFeeCents } from './fees';
export { MAX_PAYMENT_EUROS, centsToEuros, euroText, eurosToCents, parseEuros } from './money';
export { orderReference } from './reference';
