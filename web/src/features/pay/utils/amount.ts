/**
 * The amount of the payment result page's query (spec §2 "/payment/{status}, query amount"):
 * euros as the payment service writes them ("15", "15.00", "15,5", or a number) in cents, or
 * null when it is missing or not an amount.
 */
export function amountCents(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const text = String(value).trim().replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return null;
  const [euros = '0', cents = ''] = text.split('.');
  return Number(euros) * 100 + Number(cents.padEnd(2, '0'));
}
