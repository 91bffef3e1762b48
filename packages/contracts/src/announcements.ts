/**
 * Announcements. Administrators only (401 UNAUTHORIZED without a valid token,
 * 403 FORBIDDEN for anyone else), except the unsubscribe routes, which need no login:
 *
 * - POST /api/admin/announcements: the text in Estonian and English and the audience
 *   (`newsletter`: participants who opted in and have not unsubscribed; `all`: every participant,
 *   for operational notices). Answers the new announcement's id; the mails go out through the
 *   `mail` queue, each in the recipient's stored language.
 * - GET /api/admin/queues/announcements/recipients?audience=: how many an announcement would
 *   reach now, per language (asked before sending; under /admin/queues so the command API, which
 *   chooses the recipients, answers it).
 * - POST /api/admin/announcements/test: the announcement once in each language to the calling
 *   administrator only, its subject marked as a test.
 * - GET /api/admin/queues/announcements: the latest announcements with their progress (the
 *   command API answers: the counts live with the mail queue in Redis; the gateway and nginx send
 *   /api/admin/queues* there for every method).
 * - POST /api/unsubscribe `{ token }` (the public page) and POST /api/unsubscribe/{token} (RFC
 *   8058 one-click, what a mail client posts to the List-Unsubscribe address): the participant
 *   gets no more newsletter mails. 400 INVALID_UNSUBSCRIBE_LINK for a forged link or an erased
 *   person.
 */
import Type from 'typebox';
import { MultiLine, SingleLine } from './text';

export const ANNOUNCEMENT_AUDIENCES = ['newsletter', 'all'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];
/** `newsletter` or `all`. */
export const AnnouncementAudienceSchema = Type.Union([Type.Literal('newsletter'), Type.Literal('all')]);

/** Body of POST /api/admin/announcements: subjects up to 200 characters, bodies up to 20 000. */
export const AnnouncementRequest = Type.Object({
  subject_et: SingleLine({ minLength: 1, maxLength: 200 }),
  body_et: MultiLine({ minLength: 1, maxLength: 20_000 }),
  subject_en: SingleLine({ minLength: 1, maxLength: 200 }),
  body_en: MultiLine({ minLength: 1, maxLength: 20_000 }),
  audience: AnnouncementAudienceSchema,
}, { additionalProperties: false });
export type AnnouncementRequest = Type.Static<typeof AnnouncementRequest>;

/** Query of GET /api/admin/queues/announcements/recipients: the audience to count. */
export const AnnouncementRecipientsQuery = Type.Object({ audience: AnnouncementAudienceSchema }, { additionalProperties: false });
export type AnnouncementRecipientsQuery = Type.Static<typeof AnnouncementRecipientsQuery>;

/**
 * Answer of GET /api/admin/queues/announcements/recipients: how many would get the announcement
 * if it were sent now (`total`), and of them how many in Estonian (`est`) and in English (`eng`),
 * their accounts' stored language. The sending counts again when it starts.
 */
export const AnnouncementRecipients = Type.Object({
  audience: AnnouncementAudienceSchema,
  total: Type.Integer({ minimum: 0 }),
  est: Type.Integer({ minimum: 0 }),
  eng: Type.Integer({ minimum: 0 }),
});
export type AnnouncementRecipients = Type.Static<typeof AnnouncementRecipients>;

/**
 * Body of POST /api/admin/announcements/test: the text as written (the audience is not needed).
 * The test goes only to the calling administrator's own address, once in each language, its
 * subject marked as a test.
 */
export const AnnouncementTestRequest = Type.Object({
  subject_et: SingleLine({ minLength: 1, maxLength: 200 }),
  body_et: MultiLine({ minLength: 1, maxLength: 20_000 }),
  subject_en: SingleLine({ minLength: 1, maxLength: 200 }),
  body_en: MultiLine({ minLength: 1, maxLength: 20_000 }),
  audience: Type.Optional(AnnouncementAudienceSchema),
}, { additionalProperties: false });
export type AnnouncementTestRequest = Type.Static<typeof AnnouncementTestRequest>;

/** Answer of POST /api/admin/announcements/test: the number of test mails sent (one per language). */
export const AnnouncementTestSent = Type.Object({ sent: Type.Integer({ minimum: 0 }) });
export type AnnouncementTestSent = Type.Static<typeof AnnouncementTestSent>;

/** Answer of POST /api/admin/announcements. */
export const AnnouncementCreated = Type.Object({ announcementId: Type.String() });
export type AnnouncementCreated = Type.Static<typeof AnnouncementCreated>;

/**
 * One announcement's progress: `queued` mails (recipients found when the sending started; null
 * until then), `sent`, `failed` (gave up after every retry) and `skipped` (erased or unsubscribed
 * by the time their mail's turn came).
 */
export const AnnouncementProgress = Type.Object({
  announcementId: Type.String(),
  subject_et: Type.String(),
  subject_en: Type.String(),
  audience: AnnouncementAudienceSchema,
  /** ISO-8601 UTC. */
  publishedAt: Type.String(),
  queued: Type.Union([Type.Integer(), Type.Null()]),
  sent: Type.Integer(),
  failed: Type.Integer(),
  skipped: Type.Integer(),
});
export type AnnouncementProgress = Type.Static<typeof AnnouncementProgress>;

/** Answer of GET /api/admin/queues/announcements: the latest 50, newest first. */
export const AnnouncementList = Type.Object({ announcements: Type.Array(AnnouncementProgress) });
export type AnnouncementList = Type.Static<typeof AnnouncementList>;

/** An unsubscribe token as the mails carry it: `{participantId}.{22 base64url characters}`. */
export const UNSUBSCRIBE_TOKEN_PATTERN = '^[1-9][0-9]{0,9}\\.[A-Za-z0-9_-]{22}$';

/** Body of POST /api/unsubscribe. A token of another shape is INVALID_UNSUBSCRIBE_LINK, not INVALID_REQUEST. */
export const UnsubscribeRequest = Type.Object({ token: SingleLine({ maxLength: 100 }) }, { additionalProperties: false });
export type UnsubscribeRequest = Type.Static<typeof UnsubscribeRequest>;

/** Path of POST /api/unsubscribe/{token}. */
export const UnsubscribeParams = Type.Object({ token: SingleLine({ maxLength: 100 }) }, { additionalProperties: false });

/** Answer of both unsubscribe routes. */
export const Unsubscribed = Type.Object({ unsubscribed: Type.Literal(true) });
export type Unsubscribed = Type.Static<typeof Unsubscribed>;
