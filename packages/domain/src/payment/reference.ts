/**
 * The short order reference shown to the payer (the payment result page's "code", the bank
 * statement's description): the first 8 hexadecimal digits of the order's UUID, upper-case
 * ("3F2A9C1B"). It is for people to quote; the order id stays the key everywhere.
 */
export function orderReference(orderId: string): string {
  return orderId.replace(/-/g, '').slice(0, 8).toUpperCase();
}
