/**
 * "My data": a participant downloads everything the app holds about them, and
 * erases their own account with their password.
 *
 * - GET /api/me/data (query API; `?format=csv` or GET /api/me/data.csv for the CSV): a download
 *   (`Content-Disposition: attachment; filename="sinilill-minu-andmed-YYYY-MM-DD.json|csv"`, the
 *   date in Europe/Tallinn) of the caller's own data only — the token's account: MyDataExport as
 *   JSON; as CSV one file of MY_DATA_CSV_COLUMNS with a `section` column (account, participant,
 *   entry, payment, event). Events are streamed in batches, in global order. 401 without a valid
 *   session.
 * - POST /api/me/erase (command API) with EraseMyAccountBody: the administrator's deletion of the
 *   caller's account (UserDeleted, ParticipantDeleted, the person's key destroyed: docs/decisions/0002), by the
 *   caller themself; their entries stay, so the team keeps its km without the name. Answers
 *   EraseMyAccountAnswer; every session of the account ends (the token then gets 401).
 *   Refusals: INVALID_PASSWORD (400, counted like a failed login of the account), 429
 *   TOO_MANY_REQUESTS while the account's login limits hold, FORBIDDEN (403: an administrator
 *   account, which another administrator deletes), INVALID_REQUEST (400: a malformed body).
 *
 * Money in integer EUR cents, distances in km (two decimals), instants ISO-8601 UTC, dates of
 * activities YYYY-MM-DD as entered (Europe/Tallinn). Personal fields read null once erased.
 */
import Type from 'typebox';
import { SingleLine } from './text';
import { PASSWORD_MAX } from './auth';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** GET /api/me/data: `format` json (default) or csv. */
export const MyDataQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    /** The page's language (spec §1 `est`/`eng`): the file is named in it; default `est`. */
    lang: Type.Optional(Type.Union([Type.Literal('est'), Type.Literal('eng')])),
  },
  { additionalProperties: false },
);
export type MyDataQuery = Type.Static<typeof MyDataQuery>;

/** GET /api/me/data.csv?lang=: the file named in the page's language (MyDataQuery's `lang`). */
export const MyDataCsvQuery = Type.Object(
  { lang: Type.Optional(Type.Union([Type.Literal('est'), Type.Literal('eng')])) },
  { additionalProperties: false },
);
export type MyDataCsvQuery = Type.Static<typeof MyDataCsvQuery>;

/** The account (stream user-{id}). */
export const MyAccount = Type.Object({
  user_id: Type.String(),
  email: Nullable(Type.String()),
  full_name: Nullable(Type.String()),
  role: Type.String(),
  approved: Type.Boolean(),
  created_at: Nullable(Type.String()),
});

/** The participant (stream participant-{id}); null for an account without one (an administrator). */
export const MyParticipant = Type.Object({
  id: Type.Integer(),
  team: Nullable(Type.Object({ id: Type.Integer(), team_name: Nullable(Type.String()) })),
  full_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  birth_year: Nullable(Type.Integer()),
  gender: Nullable(Type.String()),
  captain: Type.Boolean(),
  paid: Type.Boolean(),
  newsletter: Type.Boolean(),
  registered_at: Nullable(Type.String()),
});

/** One state of an entry as an event left it (any entry event: an add or edit carries the entry's figures). */
export const MyEntryVersion = Type.Object({
  type: Type.String(),
  at: Nullable(Type.String()),
  distance: Nullable(Type.Number()),
  entry_type: Nullable(Type.String()),
  performed_at: Nullable(Type.String()),
});

/**
 * An entry the person logged (or that was theirs), with every version. `status` 'rejected': an
 * administrator rejected it, so it counts nowhere (it stays in the download: it is their data).
 */
export const MyEntry = Type.Object({
  id: Type.Integer(),
  team_id: Nullable(Type.Integer()),
  status: Type.Union([Type.Literal('active'), Type.Literal('deleted'), Type.Literal('rejected')]),
  distance: Nullable(Type.Number()),
  entry_type: Nullable(Type.String()),
  performed_at: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  versions: Type.Array(MyEntryVersion),
});

/** A payment order the person made, with its outcomes and refunds (EUR cents). */
export const MyPayment = Type.Object({
  order_id: Type.String(),
  reference: Nullable(Type.String()),
  kind: Nullable(Type.String()),
  status: Type.String(),
  amount_cents: Type.Integer(),
  fee_cents: Nullable(Type.Integer()),
  refunded_cents: Type.Integer(),
  provider: Nullable(Type.String()),
  ordered_at: Nullable(Type.String()),
  outcomes: Type.Array(Type.Object({ type: Type.String(), at: Nullable(Type.String()), amount_cents: Nullable(Type.Integer()), reason: Nullable(Type.String()) })),
});

/** An event of the log that names the person, decrypted for them (as the admin history shows it). */
export const MyEvent = Type.Object({
  position: Type.Integer(),
  stream: Type.String(),
  revision: Type.Integer(),
  type: Type.String(),
  recorded_at: Type.String(),
  actor: Nullable(Type.Object({ userId: Nullable(Type.String()), role: Type.String() })),
  data: Type.Unknown(),
});

/** The JSON download of GET /api/me/data. */
export const MyDataExport = Type.Object({
  generated_at: Type.String(),
  account: MyAccount,
  participant: Nullable(MyParticipant),
  entries: Type.Array(MyEntry),
  payments: Type.Array(MyPayment),
  events: Type.Array(MyEvent),
});
export type MyDataExport = Type.Static<typeof MyDataExport>;
export type MyAccount = Type.Static<typeof MyAccount>;
export type MyParticipant = Type.Static<typeof MyParticipant>;
export type MyEntry = Type.Static<typeof MyEntry>;
export type MyPayment = Type.Static<typeof MyPayment>;
export type MyEvent = Type.Static<typeof MyEvent>;

/** The CSV download's columns, in order; a row fills those of its section (the rest empty). */
export const MY_DATA_CSV_COLUMNS = [
  'section', 'id', 'type', 'status', 'email', 'full_name', 'role', 'approved', 'team', 'birth_year', 'gender', 'captain', 'paid',
  'newsletter', 'distance_km', 'entry_type', 'performed_at', 'amount_cents', 'refunded_cents', 'reference', 'created_at',
  'stream', 'actor', 'data',
] as const;
export type MyDataCsvColumn = (typeof MY_DATA_CSV_COLUMNS)[number];

/** POST /api/me/erase: the account's password, as the confirmation. */
export const EraseMyAccountBody = Type.Object(
  { password: SingleLine({ minLength: 1, maxLength: PASSWORD_MAX }) },
  { additionalProperties: false },
);
export type EraseMyAccountBody = Type.Static<typeof EraseMyAccountBody>;

/** POST /api/me/erase's answer: the position of the erasure's append (read-your-writes). */
export const EraseMyAccountAnswer = Type.Object({ success: Type.Literal(true), position: Type.Integer() });
export type EraseMyAccountAnswer = Type.Static<typeof EraseMyAccountAnswer>;

/**
 * The download's file name for a date (YYYY-MM-DD, Europe/Tallinn), format and the page's
 * language: sinilill-minu-andmed-… in Estonian (the default), sinilill-my-data-… in English.
 */
export function myDataFileName(date: string, format: 'json' | 'csv', lang: 'est' | 'eng' = 'est'): string {
  return `sinilill-${lang === 'eng' ? 'my-data' : 'minu-andmed'}-${date}.${format}`;
}
