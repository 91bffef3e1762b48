/**
 * The organiser's details shown to payers (spec §2 "Payment": manual bank transfer fallback).
 *
 * The bank account number and the event registration site are configuration, not code: set
 * VITE_ORGANISER_BANK_ACCOUNT (the organiser's real IBAN) and VITE_EVENT_REGISTRATION_URL when
 * building the client (`VITE_ORGANISER_BANK_ACCOUNT="EE.. .... " npx vite build`). The
 * organiser's real account replaces the unset value; while it is unset the payment page asks
 * payers to write to the contact address for it instead of showing a made-up number, and the
 * registration-site link is left out.
 */

/** Name on the account that receives participation fees. */
export const ORGANISATION_NAME = 'MTÜ Sinilill';

/** Contact address for participants' questions (spec §2 footer "contact address {email}"). */
export const CONTACT_EMAIL = 'info@sinilill.ee';

function configured(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The organiser's bank account (IBAN) for manual transfers; null until configured. */
export const BANK_ACCOUNT: string | null = configured(import.meta.env.VITE_ORGANISER_BANK_ACCOUNT);

/** The event registration site linked from the payment page; null until configured. */
export const EVENT_REGISTRATION_URL: string | null = configured(import.meta.env.VITE_EVENT_REGISTRATION_URL);

/** The payment description of a manual transfer (spec §2): "Sinilill 2025 osalustasu <full name>". */
export function paymentDescription(year: number, fullName: string): string {
  return `Sinilill ${year} osalustasu ${fullName}`.trim();
}
