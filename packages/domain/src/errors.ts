/**
 * The error catalogue (spec §8) plus the codes this product adds. A rule violation anywhere
 * throws DomainError(code); the HTTP layer answers `{ message: code }` and the web client shows
 * the code's text from its i18n catalogue (both languages carry every code).
 */
export const ERROR_CODES = [
  // spec §8
  'GENERIC_ERROR',
  'INVALID_CREDENTIALS',
  'JOIN_CODE_EXPIRED',
  'INVALID_JOIN_CODE',
  'EMAIL_ALREADY_IN_USE',
  'TEAM_NAME_ALREADY_IN_USE',
  'PASSWORDS_DONT_MATCH',
  'USER_NOT_APPROVED',
  'MAX_IMAGE_SIZE',
  'NOT_ALLOWED_FILE_TYPE',
  'NEW_PASSWORDS_DONT_MATCH',
  'INVALID_PASSWORD',
  'INVALID_PERFORMED_AT',
  'INVALID_EMAIL',
  'INVALID_RESET_TOKEN',
  'INVALID_ACCOUNT_TOKEN',
  'ALREADY_PAID_FOR',
  'AMOUNT_NOT_MATCH',
  'AMOUNT_TOO_LOW',
  'NOT_SELECTED',
  // added by this product (each has a text in both languages)
  'INVALID_REQUEST', // malformed body, unknown field, wrong type, over-long string
  'INVALID_DISTANCE', // entry distance not a number with at most two decimals, or out of range
  'INVALID_AMOUNT', // a payment amount that is not euros with at most two decimals (a string, negative, over 1 000 000 EUR)
  'INVALID_ENTRY_TYPE', // missing type, or Other without its free text
  'UNAUTHORIZED', // no or invalid token (401)
  'FORBIDDEN', // authenticated but not allowed (403)
  'NOT_FOUND', // no such team, participant or entry
  'CONCURRENCY_CONFLICT', // the same thing was changed at the same time; try again
  'ENTRY_INSERTION_DISABLED', // the global entry-insertion switch is off
  'ENTRY_DEADLINE_PASSED', // after the late-entry deadline (spec §4: midnight, 3 May)
  'PARTICIPANT_NOT_IN_TEAM', // the entry's member is not in the entry's team
  'ALREADY_EXISTS', // the thing was created already (a repeated create)
  'VALUE_TOO_LONG', // a text longer than its limit (spec §5)
  'PASSWORD_TOO_SHORT', // a new password shorter than 6 characters (spec §5 "password minimum length 6")
  'PASSWORD_TOO_WEAK', // a new password too easy to guess (zxcvbn score below 2; common words, the person's own e-mail or name)
  'REGISTRATION_DISABLED', // the global registration switch is off (spec §2: "Registration is currently disabled.")
  'TOO_MANY_REQUESTS', // too many login, registration or password-reset attempts in a short time; wait as Retry-After says (429; docs/decisions/0024)
  'NEWS_UNAVAILABLE', // the news page's content service (Strapi) did not answer usably (502)
  'INVALID_NOTIFICATION', // a payment provider's notification or return token is forged, expired, foreign or states another amount
  'PAYMENT_PROVIDER_UNAVAILABLE', // the payment provider did not answer usably (502); try again later
  'IDEMPOTENCY_KEY_REUSED', // an Idempotency-Key already used for another request (other body, path or route) (422; docs/decisions/0007)
  'INVALID_CHARACTERS', // a text holds NUL, a lone surrogate or a control character (tab and line breaks only in multi-line texts) (400)
  'REQUEST_TOO_LARGE', // a request body over its limit (413; 1 MiB, 16 MiB for a team's icon)
  'SERVICE_UNAVAILABLE', // a part of the site is restarting or unreachable; try again in a moment (503)
  'REFUND_EXCEEDS_PAYMENT', // a refund larger than what the order paid and has not had refunded yet (400)
  'ORDER_NOT_PAID', // a refund of an order the provider has not confirmed as paid (pending or failed) (409)
  'FIELD_MISMATCH', // a field the server keeps itself (an id, team_id, created_at, a team's name or join code) sent with another value than the stored one; the body names it in `field` (409)
  'ACTIVITY_FILE_NOT_SUPPORTED', // a file that is not a GPX, TCX or FIT activity (another format, or an extension that does not match the content) (415)
  'ACTIVITY_FILE_UNREADABLE', // a GPX, TCX or FIT file that is damaged and cannot be parsed (400)
  'ACTIVITY_FILE_EMPTY', // an activity file with no track points or no distance to add (400)
  'ACTIVITY_FILE_IS_ROUTE', // a planned route or course (GPX <rte> without a track, TCX <Course>, FIT file type course), not an activity done (400, as the other unreadable files; docs/decisions/0092)
  'ACTIVITY_FILE_TOO_LARGE', // an activity file over 20 MB (413)
  'ACTIVITY_FILE_ALREADY_USED', // the same activity file (same content hash) was already made into an entry (409)
  'CERTIFICATE_NOT_AVAILABLE_YET', // a certificate asked for before the event's results are final (the late-entry deadline, spec §4) (409)
  'CERTIFICATE_NOT_VALID', // a certificate code that is forged, mistyped or no longer names anyone (404)
  'ENTRY_NOT_UNDER_REVIEW', // an approval or rejection of an entry that is not flagged, or whose review was decided already (409)
  'DRAW_ALREADY_COMMITTED', // a second commitment for the edition's prize draw (409)
  'DRAW_NOT_COMMITTED', // a draw without a published commitment (409)
  'DRAW_SEED_MISMATCH', // a revealed seed whose hash is not the published commitment (400)
  'DRAW_NOT_YET_ALLOWED', // a draw before its announced time or before the eligibility deadline has passed (409)
  'DRAW_ALREADY_DONE', // a second draw of the edition (409)
  'INVALID_UNSUBSCRIBE_LINK', // an unsubscribe link that is forged, mistyped or of an erased person (400)
  'EDITION_INVALID', // edition data with a field missing or of the wrong kind; `field` names it (400)
  'EDITION_DATES_INVALID', // an edition's dates that are not real dates of its year or not in order: registration, first day, last day, late entries, draw (400)
  'EDITION_DATES_OVERLAP', // an edition whose days (registration to late entries) overlap another edition's (409)
  'EDITION_ROUTE_INVALID', // a route whose missions are out of order, leave gaps, or do not end at the lap length (400)
  'EDITION_FEE_INVALID', // a fee or donation amount below zero or not whole cents (400)
  'EDITION_MISSION_NAME_MISSING', // a mission without its name in Estonian or in English (400)
  'EDITION_EXISTS', // an edition of that year is planned already (409)
  'EDITION_CLOSED', // the edition is closed and archived: read-only (409)
  'EDITION_NOT_OPENED', // an edition closed before it was ever opened (409)
  'EDITION_NOT_FINISHED', // an edition closed before its late-entry deadline has passed (409)
  'REGISTRATION_NOT_OPEN', // no edition takes registrations now: the next one has not opened yet, or the last one is over (409)
  'STRAVA_NOT_CONFIGURED', // Strava sync asked for on a site without a Strava API application (STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET unset) (404)
  'STRAVA_NOT_CONNECTED', // a Strava call (mode, proposal, disconnect) by a participant who has no live Strava connection (409)
  'STRAVA_STATE_INVALID', // a Strava authorization return whose state is forged, altered, expired or another person's (400)
  'STRAVA_UNAVAILABLE', // Strava did not answer, or answered with an error, while connecting or disconnecting (502)
  'STRAVA_ACTIVITY_OUTSIDE_EDITION', // a Strava activity performed outside the edition's days, or after its late-entry deadline: skipped, not an entry (409)
  'STRAVA_ACTIVITY_WITHOUT_DISTANCE', // a Strava activity without a distance (strength training, yoga): skipped, not an entry (409)
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A business-rule violation carrying its catalogue code (spec §8). */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    /** Optional detail for logs and for codes whose text takes a value (MAX_IMAGE_SIZE + "5MB"). */
    readonly detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

/** True when `value` is a code of the catalogue. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
