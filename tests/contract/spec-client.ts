/**
 * A client of the API written from the product spec alone: spec §7's calls
 * under /api, the stored-token Authorization header ("Bearer <token>", spec §4), bodies shaped as
 * spec §3 defines them, failures read from the answer's `message` field (spec §7). It imports
 * nothing of the application — no @sinilill/contracts types, no web client code — so that a change
 * to the app's own shapes cannot silently change what this client sends or expects.
 */
import { eventually, type RunningStack } from '../support/stack';

/** The §8 catalogue (spec §8 table). */
export const SPEC_CODES = [
  'GENERIC_ERROR', 'INVALID_CREDENTIALS', 'JOIN_CODE_EXPIRED', 'INVALID_JOIN_CODE', 'EMAIL_ALREADY_IN_USE',
  'TEAM_NAME_ALREADY_IN_USE', 'PASSWORDS_DONT_MATCH', 'USER_NOT_APPROVED', 'MAX_IMAGE_SIZE', 'NOT_ALLOWED_FILE_TYPE',
  'NEW_PASSWORDS_DONT_MATCH', 'INVALID_PASSWORD', 'INVALID_PERFORMED_AT', 'INVALID_EMAIL', 'INVALID_RESET_TOKEN',
  'INVALID_ACCOUNT_TOKEN', 'ALREADY_PAID_FOR', 'AMOUNT_NOT_MATCH', 'AMOUNT_TOO_LOW', 'NOT_SELECTED',
] as const;

/** An answer: the HTTP status and the parsed JSON body (null when not JSON). */
export interface SpecAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  location: string | null;
}

/** Spec §3 "Gender MALE 0, FEMALE 1, UNDEFINED 2" and "Role USER 0, ADMIN 1". */
export const Gender = { MALE: 0, FEMALE: 1, UNDEFINED: 2 } as const;
export const Role = { USER: 0, ADMIN: 1 } as const;

/** Spec §3 "Registration payload". */
export interface RegistrationPayload {
  team_join_code: string;
  full_name: string;
  email: string;
  gender: number | string;
  birth_year: number;
  password: string;
  newsletter: boolean;
  type: 'JOIN_TEAM' | 'REGISTER_TEAM';
  team_name: string;
  lang: string;
}

/** Spec §3 "Payment request": billingAddress (empty), isPaid, grandTotal, payment {method, methodOptions, amount}; EUR. */
export function paymentRequest(amount: unknown, options: { isPaid?: boolean; grandTotal?: unknown; provider?: string; country?: string } = {}) {
  return {
    billingAddress: {},
    isPaid: options.isPaid ?? false,
    grandTotal: options.grandTotal ?? amount,
    payment: {
      method: 'paymentInitiation',
      methodOptions: { preferredCountry: options.country ?? 'EE', preferredProvider: options.provider ?? 'HABAEE2X' },
      amount,
    },
  };
}

/** The claims of a login token, decoded without verification as spec §7 says the client does. */
export function decodeToken(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A spec client bound to a site's base URL (e.g. http://127.0.0.1:4000). */
export function specClient(baseUrl: () => string) {
  /**
   * One call of spec §7: `path` under /api, `token` sent as "Bearer <token>", `body` as JSON.
   * Redirects are not followed.
   */
  async function call<T = Record<string, unknown>>(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<SpecAnswer<T>> {
    const response = await fetch(`${baseUrl()}/api${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: response.status, body: body as T, text, location: response.headers.get('location') };
  }
  return { call };
}

interface Mail { subject: string; text: string; to: { address: string }[] }

/**
 * The newest mail to `address` whose text holds a link to `path`, as its {token, id}: read from
 * the MailDev inbox that `site`'s launcher printed (MailDev's REST API), waiting up to 20 s.
 */
export async function linkFromMail(site: RunningStack, address: string, path: string): Promise<{ token: string; id: string }> {
  const inbox = /mail inbox \(MailDev\): (\S+)/.exec(site.output())![1]!;
  let found: RegExpExecArray | null = null;
  await eventually(async () => {
    const mails = await (await fetch(`${inbox}/email`)).json() as Mail[];
    for (const mail of mails.reverse()) {
      if (!mail.to.some((to) => to.address === address)) continue;
      found = new RegExp(`${path}/([^/\\s]+)/([^/\\s?]+)`).exec(mail.text);
      if (found) return true;
    }
    return false;
  }, 20_000);
  const [, token, id] = found!;
  return { token: token!, id: id! };
}
