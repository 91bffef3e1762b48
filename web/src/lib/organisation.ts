/**
 * The organiser's details: the footer's (spec §2 "Navigation and frame": contact, social links,
 * company name and registry code, main supporter) and those shown to payers (spec §2 "Payment":
 * manual bank transfer fallback).
 *
 * The event registration site is configuration, not code: set VITE_EVENT_REGISTRATION_URL when
 * building the client; while it is unset the payment page leaves the link out. The bank-transfer
 * details are the server's configuration (BANK_ACCOUNT_NAME, BANK_ACCOUNT_IBAN,
 * BANK_TRANSFER_DESCRIPTION; GET /api/payment/banktransfer), not the client's.
 */
import mainSupporterLogo from '../assets/supporters/kivikaare-kindlustus.svg';

/** Name on the account that receives participation fees; the organiser in the footer (spec §2). */
export const ORGANISATION_NAME = 'MTÜ Sinilill';

/**
 * The organiser's registry code (Estonian non-profit register) shown in the footer (spec §2).
 * PLACEHOLDER: the spec does not give the organiser's real details. The organiser's real
 * registry code replaces this value before the site goes public.
 */
export const REGISTRY_CODE = '80000000';

/** Contact address for participants' questions (spec §2 footer "contact address {email}"). */
export const CONTACT_EMAIL = 'info@sinilill.ee';

/**
 * The event's social media (spec §2 footer "social links", history page "social group link").
 * The organiser confirms these addresses before the site goes public (the spec names none).
 */
export const SOCIAL_LINKS = {
  facebook: 'https://www.facebook.com/sinilill.ee',
  instagram: 'https://www.instagram.com/sinilill.ee',
} as const;

/** The participants' Facebook group, linked from the history and guide pages. */
export const SOCIAL_GROUP_URL = 'https://www.facebook.com/groups/sinilill';

/**
 * The main supporter, whose logo the footer links to (spec §2). ILLUSTRATIVE STAND-IN, like the
 * whole list in features/sponsors/sponsors.ts (which shows it first): a fictional organisation
 * until the organiser's real main supporter replaces it.
 */
export const MAIN_SUPPORTER = {
  id: 'kivikaare-kindlustus',
  name: 'Kivikaare Kindlustus AS',
  url: 'https://kivikaare.example.ee',
  logo: mainSupporterLogo,
} as const;

function configured(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The event registration site linked from the payment page; null until configured. */
export const EVENT_REGISTRATION_URL: string | null = configured(import.meta.env.VITE_EVENT_REGISTRATION_URL);
