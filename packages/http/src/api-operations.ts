/**
 * What a person and a client generator read about each operation of the two APIs: one entry per
 * route, keyed `METHOD /api/path` with the path as OpenAPI writes it (`/api/team/{id}`), applied
 * to the documents by api-docs.ts as they are generated. The texts live here, in one place, and
 * not in the route files: the route files say what a route validates and answers (its schema),
 * this map says what it is for.
 *
 * - `summary`: one short line (Redocly's `operation-summary`), `description`: what it does, who
 *   may call it and what it answers beyond the schema, in English. The login and administrator
 *   notes are added by api-docs.ts from the route's guards, not written here.
 * - `tags`: the area the operation belongs to (declared in API_TAGS); api-docs.ts adds `admin`
 *   to administrators' routes.
 * - `operationId`: derived from the route (operationIdOf: method + static path segments, a
 *   trailing parameter as `By<Name>`), so that it stays the same while the route does; given here
 *   only where the derived one would be ambiguous. Unique across both documents
 *   (tests/int/api-docs.int.test.ts).
 * - `security`: only where it is neither the bearer token (routes behind a login) nor none
 *   (public routes): the refresh cookie of the session routes.
 * - `examples`: a request body and a success answer for the spec's §3 entities (Team,
 *   Participant, User, Entry, Team stat entry, Payment info and methods, the registration and
 *   login payloads); each is checked against the route's own schema by the same test.
 *
 * A route without an entry is still documented (with its method and path as its summary), and
 * the documents' test fails on it: adding a route means adding its entry here.
 */

/** One operation's texts (see the module's comment). */
export interface OperationText {
  operationId?: string;
  summary: string;
  description: string;
  tags: readonly string[];
  /** Security requirements other than the bearer token or none (OpenAPI Security Requirement Objects). */
  security?: readonly Record<string, readonly string[]>[];
  examples?: { request?: unknown; response?: unknown };
  /**
   * Answers the route's schema cannot say: a file, a page, a stream or a redirect. Status → its
   * description and media types (none: no body).
   */
  answers?: Readonly<Record<number, { description: string; media?: readonly string[] }>>;
  /** Refusals (`{ message: CODE }`) the route answers beyond the statuses its schema declares. */
  refusals?: readonly number[];
  /** A request body that is not JSON: its media type and what it is. */
  requestBody?: { media: string; description: string };
}

/** The name of the refresh cookie's scheme (the cookie itself: REFRESH_COOKIE, path /api/session). */
export const REFRESH_COOKIE_SCHEME = 'refreshCookie';

/** The areas operations are grouped in, in the order a reader meets them. */
export const API_TAGS: readonly { name: string; description: string }[] = [
  { name: 'stats', description: 'Public figures of the current edition: every team\'s km, flowers and money raised (spec §7 GET /stats).' },
  { name: 'accounts', description: 'Registration, confirmation, login, sessions and passwords (spec §7).' },
  { name: 'team', description: 'The team page: the card, members, entries, join code and the live stream (spec §7 /team/{id}…). Members of the team and administrators.' },
  { name: 'entries', description: 'A member\'s km: add, edit, delete, from activity files, and what each entry did (spec §7 /entry…).' },
  { name: 'payment', description: 'The participation fee and donations: methods, orders, the provider\'s notifications and the sandbox bank (spec §7 /payment/…).' },
  { name: 'me', description: 'The caller\'s own account: their data, its erasure, joining a new edition.' },
  { name: 'strava', description: 'Strava sync: a member\'s connection and proposals, Strava\'s OAuth redirect and webhook.' },
  { name: 'editions', description: 'The yearly editions: the current, the next and the archive with its results.' },
  { name: 'certificates', description: 'Certificates of a participant\'s or team\'s km, their public verification, and share images.' },
  { name: 'draw', description: 'The prize draw: committed before, verifiable by anyone after.' },
  { name: 'news', description: 'The news page\'s stories (spec §7 POST /strapi/story).' },
  { name: 'settings', description: 'The global switches (spec §4): registration and entry insertion.' },
  { name: 'images', description: 'Stored images (team icons), named by their content\'s hash.' },
  { name: 'announcements', description: 'Newsletter announcements (administrators) and unsubscribing from them (anyone with the mail\'s link).' },
  { name: 'admin', description: 'The admin console: administrators only (401 UNAUTHORIZED without a login, 403 FORBIDDEN for anyone else).' },
  { name: 'operations', description: "Operators' tools: replays of the read models, parked events, the queue board's session, the read side's health. "
    + 'The queue board itself (Bull Board\'s page, assets and API, under /api/admin/queues, opened in a browser with the cookie '
    + 'POST /api/admin/queues/session sets) is not described here: it is Bull Board\'s, not this API\'s.' },
];

const TEAM_EXAMPLE = {
  id: 17, team_name: 'Sinilille Sõbrad', icon: '/api/images/3f7a1c0e9b2d4a6f8e1c5b7d9a2f4e6c8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a.webp',
  description: 'Jookseme ja kõnnime veteranide toetuseks.', join_code: 'K7QX-2M9P', participant_count: 8, distance: 2107,
  created_at: '2025-03-02T10:15:00.000Z', prestige: 1, inLapDistance: 214.35, blueFlowers: 110, raised_cents: 12000, raised_unknown_count: 0,
};
const ENTRY_EXAMPLE = {
  id: 4512, team_id: 17, participant_id: 233, distance: 12.5, entry_type: 'RUNNING', performed_at: '2025-04-14', created_at: '2025-04-14T17:42:10.000Z',
};

/** `METHOD /api/path` → the operation's texts. */
export const API_OPERATIONS: Readonly<Record<string, OperationText>> = {
  // ---- query API: public reads
  'GET /api/stats': {
    tags: ['stats'], summary: 'Every team\'s figures and the totals',
    description: 'Every team of the current edition with its km (rounded sum of its entries), members, km of the current day '
      + '(Europe/Tallinn), prestige, in-lap km, blue flowers and money raised (EUR cents), and the totals (spec §7 GET /stats, §4). '
      + 'The same for everyone: cached, with an ETag.',
    examples: {
      response: {
        teams: [{
          team: { id: 17, team_name: 'Sinilille Sõbrad', icon: null, description: 'Jookseme ja kõnnime veteranide toetuseks.' },
          distance: 2107, participants: 8, dailyDistance: 23.4, prestige: 1, inLapDistance: 214.35, blueFlowers: 110, raised_cents: 12000, raised_unknown_count: 0,
        }],
        totalParticipants: 8, totalDistance: 2107, totalBlueFlowers: 110, raised_cents: 12000, raised_unknown_count: 0, today: '2025-04-15',
      },
    },
  },
  'GET /api/stats/teams': {
    tags: ['stats'], summary: 'The public teams table, paged, sorted and searched',
    description: 'The participants page\'s table (spec §2): the current edition\'s teams as GET /api/stats has them, `size` a page '
      + '(10 by default), sorted by team name, km, members or flowers (km descending by default), searched by team name (`q`).',
  },
  'GET /api/fundraising': {
    tags: ['stats'], summary: 'Money raised, overall and per team',
    description: 'Fees and donations raised in EUR, overall and per team; `unknownCount` counts paid fees whose amount is not known '
      + '(the figure is then "at least").',
  },
  'GET /api/settings': {
    tags: ['settings'], summary: 'The global switches and whether entries are open',
    description: 'Whether registration and entry insertion are switched on (spec §4) and whether entries are open now (the switch and '
      + 'the current edition\'s late-entry deadline, by the server\'s clock). Public; cached with an ETag.',
  },
  'GET /api/editions': {
    tags: ['editions'], summary: 'The current, the next and the past editions',
    description: 'The server clock\'s instant, the current edition, the next announced one whose registration has not opened, and '
      + 'the archive of closed editions, newest first. Drafts never appear. Public.',
  },
  'GET /api/history/editions/{year}': {
    tags: ['editions'], summary: 'A closed edition\'s results',
    description: 'A closed edition\'s figures (participants, teams, km, flowers, money raised in EUR cents), its teams with most km '
      + 'first, its route and its draw\'s winners. 404 NOT_FOUND for an edition that is not closed or not known: results are published once final.',
  },
  'GET /api/draw': {
    tags: ['draw'], summary: 'The prize draw, as anyone may check it',
    description: 'The current edition\'s draw: its commitment and instant, and after the draw the seed, the eligible participant ids, '
      + 'their count and SHA-256, and the winners in draw order (first name and team name only). `status` is `none` without a draw.',
  },
  'GET /api/certificates/{code}': {
    tags: ['certificates'], summary: 'Verify a certificate\'s code',
    description: 'The figures the code on a certificate certifies, recomputed now. A malformed, mistyped or forged code, or one whose '
      + 'participant is deleted or whose name is erased, answers 404 CERTIFICATE_NOT_VALID and no name. Public.',
  },
  'GET /api/team/{id}/share.png': {
    answers: { 200: { description: 'The image (PNG, 1200×630).', media: ['image/png'] }, 304: { description: 'Not modified: the If-None-Match names it.' } },
    tags: ['certificates'], summary: 'A team\'s share image (PNG)',
    description: 'The team\'s 1200×630 image for sharing: name, km, flowers, the lap\'s missions and progress, in `lang`. Public; '
      + 'an ETag and `Cache-Control: public, max-age=300`.',
  },
  'GET /api/share/team/{id}': {
    answers: { 200: { description: 'The page (HTML).', media: ['text/html'] } },
    tags: ['certificates'], summary: 'A team\'s share page (HTML)',
    description: 'The team-progress page with its Open Graph tags, for links shared on social media. Public; answers HTML.',
  },
  'GET /api/images/{name}': {
    answers: { 200: { description: 'The image\'s bytes.', media: ['image/webp', 'image/png', 'image/jpeg'] }, 304: { description: 'Not modified: the If-None-Match names it.' } },
    refusals: [404],
    tags: ['images'], summary: 'A stored image',
    description: 'A stored image (a team icon) by its name, the SHA-256 of its bytes: cached for a year, its hash as ETag, 304 for a '
      + 'matching If-None-Match. Any other name: 404 NOT_FOUND. Public.',
  },
  'POST /api/strapi/story': {
    refusals: [502],
    tags: ['news'], summary: 'The news page\'s stories',
    description: 'The published stories in `locale` (et/en, or est/eng), newest first (spec §7). A read, though a POST: the spec\'s '
      + 'method and path. 502 NEWS_UNAVAILABLE when the news source fails. Public.',
  },
  'GET /api/health': {
    tags: ['operations'], summary: 'The read side\'s projected position',
    description: 'Whether the query API answers, and the position the read models have reached. With `x-min-position` it waits '
      + 'for every projection. The processes\' own probes are /health and /metrics, outside /api.',
  },
  // ---- query API: members
  'GET /api/team/{id}': {
    tags: ['team'], summary: 'A team\'s card',
    description: 'The team (spec §3 Team) with its km, prestige, in-lap km, blue flowers and money raised. Members of the team and '
      + 'administrators (403 FORBIDDEN for anyone else; 404 NOT_FOUND for an administrator asking for an unknown team).',
    examples: { response: TEAM_EXAMPLE },
  },
  'GET /api/team/{id}/participants': {
    tags: ['team'], summary: 'A team\'s members',
    description: 'The team\'s members (spec §3 Participant) with whether each has paid, is the captain, and their km. Members of the '
      + 'team and administrators.',
    examples: {
      response: [{ id: 233, team: { id: 17, team_name: 'Sinilille Sõbrad' }, full_name: 'Kadi Kask', is_paid: true, is_captain: true, distance: 312.45, created_at: '2025-03-02T10:15:00.000Z' }],
    },
  },
  'GET /api/team/{id}/entries': {
    tags: ['team', 'entries'], summary: 'A team\'s entries',
    description: 'Every live entry of the team (spec §3 Entry), with its review state where one was flagged. Distances in km with two '
      + 'decimals, performed_at a day (YYYY-MM-DD, Europe/Tallinn), created_at ISO 8601 UTC. Members of the team and administrators.',
    examples: { response: [ENTRY_EXAMPLE] },
  },
  'GET /api/team/{id}/joincode': {
    tags: ['team'], summary: 'A team\'s join code',
    description: 'The code a new member registers with (spec §7). Members of the team and administrators.',
    examples: { response: { code: 'K7QX-2M9P', created_at: '2025-03-02T10:15:00.000Z' } },
  },
  'GET /api/team/{id}/live': {
    answers: { 200: { description: 'Server-sent events, one `data:` line per change, until the client leaves.', media: ['text/event-stream'] } },
    tags: ['team'], summary: 'A team\'s changes as they happen (event stream)',
    description: 'Server-sent events: one event each time the team\'s card, members or entries change, so that the team page '
      + 'reloads what changed. Members of the team and administrators.',
  },
  'GET /api/team/{id}/entries/{entryId}/contribution': {
    tags: ['entries'], summary: 'What an entry did to its team',
    description: 'What the entry\'s latest change did to the team\'s km, flowers and missions, folded from the event log. Members of '
      + 'the team and administrators; 404 NOT_FOUND when the team has no such live entry.',
  },
  'GET /api/participant/{id}/contributions': {
    tags: ['entries'], summary: 'What each of a participant\'s entries did',
    description: 'For each live entry of the participant, what it did to the team. The participant, their team mates and '
      + 'administrators.',
  },
  'GET /api/participant/{id}/certificate.pdf': {
    answers: { 200: { description: 'The certificate (PDF).', media: ['application/pdf'] } },
    tags: ['certificates'], summary: 'A participant\'s certificate (PDF)',
    description: 'The participant\'s certificate of their km, with a code anyone can verify. The participant, their team mates and '
      + 'administrators; 409 CERTIFICATE_NOT_AVAILABLE_YET while entries may still be added.',
  },
  'GET /api/team/{id}/certificate.pdf': {
    answers: { 200: { description: 'The certificate (PDF).', media: ['application/pdf'] } },
    tags: ['certificates'], summary: 'A team\'s certificate (PDF)',
    description: 'The team\'s certificate of its km, with a code anyone can verify. Members of the team and administrators; 409 '
      + 'CERTIFICATE_NOT_AVAILABLE_YET while entries may still be added.',
  },
  'GET /api/payment/info': {
    tags: ['payment'], summary: 'Whether the caller has paid, and their fee',
    description: 'Spec §3 Payment info: isPaid and isChild, the fee in EUR and cents (15 EUR, 5 EUR for those born 2011 or later, '
      + 'spec §9), and for a company team\'s captain the unpaid members and the team\'s fee. The paid flag is the read model\'s, never the token\'s.',
    examples: { response: { isPaid: false, isChild: false, fee: 15, feeCents: 1500, company: false } },
  },
  'GET /api/payment/banktransfer': {
    tags: ['payment'], summary: 'How to pay the fee by bank transfer',
    description: 'The account name, IBAN, the transfer\'s description for the caller and the amount in EUR. A transfer is checked by '
      + 'hand (up to 24 h, spec §4).',
  },
  'GET /api/payment/order/{reference}': {
    tags: ['payment'], summary: 'The state of one of the caller\'s orders',
    description: 'The caller\'s own order by its reference: status, amount in EUR, kind and refunds. Anyone else\'s order: 404 NOT_FOUND.',
  },
  'GET /api/me/data': {
    answers: { 200: { description: 'The data (JSON: account, participant, entries, orders, events; CSV with `?format=csv`).', media: ['application/json', 'text/csv'] } },
    tags: ['me'], summary: 'The caller\'s own data (JSON)',
    description: 'Everything the site keeps about the caller, read from the event log: account, participant, entries, orders and the '
      + 'events themselves. `?format=csv` answers CSV as GET /api/me/data.csv does.',
  },
  'GET /api/me/data.csv': {
    answers: { 200: { description: 'The data (CSV).', media: ['text/csv'] } },
    tags: ['me'], summary: 'The caller\'s own data (CSV)',
    description: 'The caller\'s own data as GET /api/me/data has it, as a CSV download.',
  },
  // ---- query API: administrators
  'GET /api/admin/userdata': {
    tags: ['admin'], summary: 'Every account with its participant and team',
    description: 'Spec §7 GET /admin/userdata: every account (spec §3 User, admin view) with its participant and team, in the default '
      + 'order. The console pages these with GET /api/admin/users.',
    examples: {
      response: {
        users: [{
          id: '5b0c2a9e-3f1d-4c8a-9e7b-2d6f8a0c4e1b', email: 'kadi.kask@example.ee', is_approved: true, role: 'USER', participant_id: 233,
          created_at: '2025-03-02T10:15:00.000Z',
          participant: { id: 233, full_name: 'Kadi Kask', is_paid: true, created_at: '2025-03-02T10:15:00.000Z', team: { id: 17, team_name: 'Sinilille Sõbrad' } },
        }],
      },
    },
  },
  'GET /api/admin/teamdata': {
    tags: ['admin'], summary: 'Every team with its join code',
    description: 'Spec §7 GET /admin/teamdata: every team (spec §3 Team) with its join code and figures.',
    examples: {
      response: {
        teams: [{
          id: 17, team_name: 'Sinilille Sõbrad', icon: null, description: 'Jookseme ja kõnnime veteranide toetuseks.', join_code: 'K7QX-2M9P',
          participant_count: 8, distance: 2107, created_at: '2025-03-02T10:15:00.000Z',
        }],
      },
    },
  },
  'GET /api/admin/entrydata': {
    tags: ['admin'], summary: 'Every entry with its member and team',
    description: 'Spec §7 GET /admin/entrydata: every live entry (spec §3 Entry) with the member\'s full_name and the team\'s team_name.',
    examples: { response: { entries: [{ ...ENTRY_EXAMPLE, participant: { full_name: 'Kadi Kask' }, team: { team_name: 'Sinilille Sõbrad' } }] } },
  },
  'GET /api/admin/users': {
    tags: ['admin'], summary: 'Accounts, paged, sorted and searched',
    description: 'The console\'s users table: `{ rows, total, page, size }`, each row as GET /api/admin/userdata has it; `q` searches '
      + 'e-mail, name and team name.',
  },
  'GET /api/admin/teams': {
    tags: ['admin'], summary: 'Teams, paged, sorted and searched',
    description: 'The console\'s teams table: `{ rows, total, page, size }`, each row as GET /api/admin/teamdata has it; `q` searches '
      + 'name and join code, `edition` limits to one edition.',
  },
  'GET /api/admin/entries': {
    tags: ['admin'], summary: 'Entries, paged, sorted and searched',
    description: 'The console\'s entries table: `{ rows, total, page, size }`, each row as GET /api/admin/entrydata has it; `q` '
      + 'searches the member\'s and the team\'s names, `edition` limits to one edition.',
  },
  'GET /api/admin/users.csv': {
    answers: { 200: { description: 'The rows (CSV).', media: ['text/csv'] } },
    tags: ['admin'], summary: 'Accounts as CSV',
    description: 'Every account matching `q`, in the requested order, streamed as CSV (one column per field of the table\'s rows).',
  },
  'GET /api/admin/teams.csv': {
    answers: { 200: { description: 'The rows (CSV).', media: ['text/csv'] } },
    tags: ['admin'], summary: 'Teams as CSV',
    description: 'Every team matching `q` and `edition`, in the requested order, streamed as CSV.',
  },
  'GET /api/admin/entries.csv': {
    answers: { 200: { description: 'The rows (CSV).', media: ['text/csv'] } },
    tags: ['admin'], summary: 'Entries as CSV',
    description: 'Every entry matching `q` and `edition`, in the requested order, streamed as CSV.',
  },
  'GET /api/admin/parked': {
    tags: ['operations'], summary: 'Events the projections parked',
    description: 'The events a projection could not apply and set aside (open ones, or every one with `?status=all`), and the open '
      + 'ones counted per projection: what an operator watches. Retry or skip one with POST /api/admin/parked/{position}/….',
  },
  'GET /api/admin/editions': {
    tags: ['editions'], summary: 'Every edition, drafts included',
    description: 'Every edition with its phase at the server\'s clock, drafts included, oldest first.',
  },
  'GET /api/admin/history': {
    tags: ['admin'], summary: 'The event log, filtered and paged',
    description: 'The audit: events in global order (oldest or newest first), filtered, keyset-paged by `after` or numbered by `page` '
      + 'or the page of a moment `at`, with the total.',
  },
  'GET /api/admin/history/timeline': {
    tags: ['admin'], summary: 'One stream\'s events with what each changed',
    description: 'The events of the stream `stream`, each with the fields it changed.',
  },
  'GET /api/admin/history/team/{id}/as-of': {
    tags: ['admin'], summary: 'A team\'s figures as the site knew them at an instant',
    description: 'The team\'s figures folded from its events recorded up to `at` (recording time, not when the activity happened).',
  },
  'GET /api/admin/history/export': {
    answers: { 200: { description: 'The events (NDJSON or CSV).', media: ['application/x-ndjson', 'text/csv'] } },
    tags: ['admin'], summary: 'The filtered event log as a download',
    description: 'The events the filter matches, as NDJSON or CSV (`format`), streamed up to the log\'s head when the export began.',
  },
  'GET /api/admin/review': {
    tags: ['admin', 'entries'], summary: 'The review queue of flagged entries',
    description: 'Live entries ever flagged by the moderation rules, newest flag first, 50 a page, with the member\'s and team\'s '
      + 'names; filtered by status (default: awaiting a decision), rule, team and day.',
  },
  'GET /api/admin/participant/{id}/payments': {
    tags: ['admin', 'payment'], summary: 'A participant\'s orders, for refunds',
    description: 'The participant\'s orders the console may refund, with amounts in EUR.',
  },

  // ---- command API: accounts and sessions
  'POST /api/registerteam': {
    tags: ['accounts'], summary: 'Register and found a team',
    description: 'Spec §7: the registration payload with `type: REGISTER_TEAM` and a `team_name`; `company: true` registers a company '
      + 'team. A confirmation link is mailed. An address that already has an account answers as a new one does (its owner is mailed '
      + 'instead), so nobody learns which addresses are registered. Rate-limited per client address.',
    examples: {
      request: {
        team_join_code: '', full_name: 'Kadi Kask', email: 'kadi.kask@example.ee', gender: 1, birth_year: 1985, password: 'Sinilill jookseb aprillis',
        newsletter: false, type: 'REGISTER_TEAM', team_name: 'Sinilille Sõbrad', lang: 'est',
      },
      response: { success: true, position: 1042 },
    },
  },
  'POST /api/jointeam': {
    tags: ['accounts'], summary: 'Register and join a team by its code',
    description: 'Spec §7: the registration payload with `type: JOIN_TEAM` and the team\'s `team_join_code` (INVALID_JOIN_CODE, '
      + 'JOIN_CODE_EXPIRED). A confirmation link is mailed. Rate-limited per client address, with POST /api/registerteam.',
    examples: {
      request: {
        team_join_code: 'K7QX-2M9P', full_name: 'Mart Mets', email: 'mart.mets@example.ee', gender: 0, birth_year: 1990, password: 'Metsas on hea joosta',
        newsletter: true, type: 'JOIN_TEAM', lang: 'eng',
      },
    },
  },
  'POST /api/passwordstrength': {
    tags: ['accounts'], summary: 'Whether a password is strong enough',
    description: 'Whether a candidate password passes the server\'s PASSWORD_TOO_WEAK rule, for the forms to say so as it is typed. '
      + 'Nothing is stored. Rate-limited per client address.',
  },
  'POST /api/login': {
    tags: ['accounts'], summary: 'Log in',
    description: 'Spec §7: e-mail and password → `{ token }`, a 15-minute access token (a JWT, sent as `Authorization: Bearer <token>`) whose claims are the session '
      + 'identity of spec §3; sets the HttpOnly refresh cookie that POST /api/session/refresh trades for a fresh token. '
      + 'INVALID_CREDENTIALS, USER_NOT_APPROVED before the confirmation link. Rate-limited per client address and per account.',
    examples: {
      request: { email: 'kadi.kask@example.ee', password: 'Sinilill jookseb aprillis' },
      response: { token: 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiI1YjBjMmE5ZSJ9.c2lnbmF0dXJl' },
    },
  },
  'POST /api/requestpasswordreset': {
    tags: ['accounts'], summary: 'Mail a password reset link',
    description: 'Spec §7: `{ email, lang }` (`lang` est/eng, or et/en); mails a reset link in that language. An unknown address '
      + 'answers as a known one does. A retry with the same Idempotency-Key mails nothing more. Rate-limited per client address.',
  },
  'POST /api/resetpassword': {
    tags: ['accounts'], summary: 'Set a new password with a mailed link',
    description: 'Spec §7: `{ userId, token, newPassword }` from the reset link; INVALID_RESET_TOKEN for a wrong, used or expired link. '
      + 'Ends every session of the account. Rate-limited per client address.',
  },
  'POST /api/confirmaccount': {
    tags: ['accounts'], summary: 'Confirm an account with the mailed link',
    description: 'Spec §7: `{ token, id }` from the confirmation link (the account\'s id as `id` or `userId`, not both); the account '
      + 'may log in from then on. INVALID_ACCOUNT_TOKEN for a wrong link or an account already confirmed; a retry with the same '
      + 'Idempotency-Key answers as the first. Rate-limited per client address.',
  },
  'PUT /api/account/changepassword': {
    tags: ['accounts'], summary: 'Change the caller\'s password',
    description: 'Spec §7: `{ currentPassword, newPassword }`; INVALID_PASSWORD when the current one is wrong. Every other session of '
      + 'the account ends; the caller gets a new refresh cookie with the answer.',
  },
  'POST /api/session/refresh': {
    tags: ['accounts'], summary: 'A fresh access token',
    description: 'Trades the refresh cookie for a fresh access token `{ token }` and a new cookie (rotation; a token used twice '
      + 'revokes its session), with the account\'s current identity (e.g. isPaid after a payment). Without the cookie, a valid access '
      + 'token gets its claims refreshed but not its lifetime. 401 UNAUTHORIZED (and the cookie cleared) for a used, expired or revoked token.',
    security: [{ [REFRESH_COOKIE_SCHEME]: [] }, { bearerAuth: [] }],
  },
  'POST /api/session/logout': {
    tags: ['accounts'], summary: 'Log out',
    description: 'Ends the refresh cookie\'s session (its refresh tokens and access tokens stop working at once) and clears the '
      + 'cookie; answers `{ success: true }` with or without a cookie.',
    security: [{ [REFRESH_COOKIE_SCHEME]: [] }, {}],
  },
  // ---- command API: team and entries
  'PUT /api/team/{id}/publicattributes': {
    tags: ['team'], summary: 'Change a team\'s icon and description',
    description: 'Spec §7: `{ icon, description }`; an uploaded icon (a data URL of a JPEG or PNG, at most 5 MB: '
      + 'NOT_ALLOWED_FILE_TYPE, MAX_IMAGE_SIZE) is judged by its content and stored re-encoded. The other fields of a whole §3 Team '
      + 'sent back must match the stored ones (FIELD_MISMATCH). Members of the team and administrators.',
  },
  'GET /api/team/{id}/newcode': {
    tags: ['team'], summary: 'Replace a team\'s join code',
    description: 'Spec §7: a new join code for the team; the old one stops working (spec §4). A command, though a GET (the spec\'s '
      + 'method). Members of the team and administrators.',
  },
  'POST /api/entry': {
    tags: ['entries'], summary: 'Add an entry',
    description: 'Spec §7: the entry data (distance in km, step 0.01; entry_type; performed_at YYYY-MM-DD within the edition, '
      + 'INVALID_PERFORMED_AT) → `{ success, entry, position }`. Fields of a whole §3 Entry sent along must match (FIELD_MISMATCH). '
      + 'An entry over the moderation rules\' limits is kept but flagged for review.',
    examples: {
      request: { distance: 12.5, entry_type: 'RUNNING', performed_at: '2025-04-14' },
      response: { success: true, entry: ENTRY_EXAMPLE, position: 20411 },
    },
  },
  'PUT /api/entry/{id}/edit': {
    tags: ['entries'], summary: 'Edit an entry',
    description: 'Spec §7: the entry data for the entry in the path → `{ success, entry, position }`. The member\'s own entries, '
      + 'while entries are open; distance may be 0.',
  },
  'PUT /api/entry/delete': {
    tags: ['entries'], summary: 'Delete entries',
    description: 'Spec §7 "entity type entry, ids": the ids of the entries to delete → `{ success, count, position }`. The entity '
      + 'may be named `entity`, `entity_type`, `entityType` or `type`, or left out, as entry or entries in any case; ids as '
      + 'numbers or numeric strings.',
  },
  'POST /api/team/{id}/activity-files': {
    requestBody: { media: 'application/octet-stream', description: 'The file\'s bytes (GPX, TCX or FIT); its name percent-encoded in the `x-file-name` header.' },
    tags: ['entries'], summary: 'Read an activity file into a proposal',
    description: 'The raw bytes of one GPX, TCX or FIT file (application/octet-stream; its name percent-encoded in a header) → its '
      + 'parts (one per sport and local day, km, day, type, a thinned track) and a signed proposal token. Nothing is stored. '
      + 'A member of the team in the path only.',
  },
  'POST /api/team/{id}/activity-files/confirm': {
    tags: ['entries'], summary: 'Turn a proposal\'s parts into entries',
    description: '`{ token, entry_type?, parts? }`: every part of the proposal becomes an entry of the member through the entry rules, '
      + 'in one atomic append (one part refused refuses the file). The same file again while one of its entries lives: 409 '
      + 'ACTIVITY_FILE_ALREADY_USED. A member of the team in the path only.',
  },
  'POST /api/team/{id}/invite-returning': {
    tags: ['team'], summary: 'Invite last edition\'s team mates back',
    description: 'Mails the members of the team\'s earlier edition who have not joined the current one an invitation to. A member of the re-opened team.',
  },
  // ---- command API: the caller's own account
  'POST /api/me/erase': {
    tags: ['me'], summary: 'Erase the caller\'s account',
    description: 'Erases the caller\'s account and personal data after the password is confirmed; the km of their entries stay with '
      + 'the team. Every session ends and the refresh cookie is cleared. A wrong password counts as a failed login (429 when those limits hold).',
  },
  'POST /api/me/editions/{year}/join': {
    tags: ['me', 'editions'], summary: 'Join a new edition with the same account',
    description: 'The caller joins the edition taking registrations with the account they have; earlier sessions end and the answer '
      + 'carries a new access token (and refresh cookie) naming the new participant and team.',
  },
  'GET /api/me/strava': {
    tags: ['strava'], summary: 'The caller\'s Strava connection',
    description: 'Whether Strava is available on this site, and the caller\'s connection and pending proposals. A participant only.',
  },
  'PUT /api/me/strava': {
    tags: ['strava'], summary: 'Change how Strava activities become entries',
    description: 'The connection\'s `mode` (whether activities become entries or proposals to confirm) → the connection. '
      + 'STRAVA_NOT_CONNECTED without a connection; 404 STRAVA_NOT_CONFIGURED where the site has no Strava application.',
  },
  'DELETE /api/me/strava': {
    tags: ['strava'], summary: 'Disconnect Strava',
    description: 'Ends the caller\'s Strava connection → the connection as it now stands.',
  },
  'POST /api/me/strava/connect': {
    tags: ['strava'], summary: 'Start connecting Strava',
    description: 'The address of Strava\'s consent page, with a signed state naming the caller; Strava then redirects the browser to '
      + 'GET /api/strava/callback.',
  },
  'POST /api/me/strava/proposals/{activityId}/confirm': {
    tags: ['strava', 'entries'], summary: 'Make a Strava activity an entry',
    description: 'The proposal of a synced Strava activity becomes an entry of the caller, through the entry rules → '
      + '`{ success, entry, position }`.',
  },
  'DELETE /api/me/strava/proposals/{activityId}': {
    tags: ['strava'], summary: 'Dismiss a Strava proposal',
    description: 'The proposal of a synced Strava activity is dismissed (204, no body); no entry is made.',
  },
  'GET /api/strava/callback': {
    answers: { 303: { description: 'To the account page with `?strava=connected`, `denied` or `error` (and `reason`).' } },
    tags: ['strava'], summary: 'Strava\'s OAuth redirect',
    description: 'Where Strava sends the browser after the consent page; the signed `state` names the member. Always a 303 to the '
      + 'account page with `?strava=connected`, `denied` or `error`.',
  },
  'GET /api/strava/webhook': {
    tags: ['strava'], summary: 'Strava\'s webhook handshake',
    description: 'Strava\'s subscription check: `hub.challenge` echoed for this site\'s verify token only, else 403.',
  },
  'POST /api/strava/webhook': {
    tags: ['strava'], summary: 'A Strava webhook event',
    description: 'An event from Strava (an activity created, changed or deleted, an athlete revoking access): validated, queued and '
      + 'answered at once; the work runs in the background.',
  },
  // ---- command API: payment
  'GET /api/payment/methods': {
    tags: ['payment'], summary: 'The payment methods the provider offers',
    description: 'Spec §3 Payment method: the provider\'s countries and, for each, its banks (code, name, logoUrl, uiPosition).',
    examples: {
      response: {
        provider: 'sandbox',
        countries: [{ country: 'EE', methods: [{ code: 'SANDBOX_BANK', name: 'Sandbox Bank', logoUrl: '/api/payment/sandbox/logos/SANDBOX_BANK.svg', uiPosition: 1 }] }],
      },
    },
  },
  'POST /api/payment/order': {
    tags: ['payment'], summary: 'Order the fee or a donation',
    description: 'Spec §7: the payment request (grandTotal and payment.amount in EUR, the chosen bank) → `{ paymentUrl, orderId, '
      + 'reference, amount }`; the browser goes to paymentUrl. ALREADY_PAID_FOR, AMOUNT_TOO_LOW, AMOUNT_NOT_MATCH, NOT_SELECTED. '
      + '`forTeam: true`: a company team\'s captain pays every unpaid member\'s fee.',
  },
  'GET /api/payment/return': {
    answers: { 303: { description: 'To the payment success or failure page.' } },
    tags: ['payment'], summary: 'The payer\'s way back from the provider',
    description: 'The provider sends the payer\'s browser here with a signed order token; the outcome is recorded (as a notification '
      + 'would) and the answer is a 303 to the payment success or failure page.',
  },
  'POST /api/payment/notification/{provider}': {
    tags: ['payment'], summary: 'The provider\'s notification of a payment',
    description: 'The provider\'s signed notification: verified (signature, key, expiry, amount) and recorded once, however often it '
      + 'comes. 400 INVALID_NOTIFICATION for a token that fails; nothing changes then.',
  },
  'GET /api/payment/sandbox/checkout/{orderId}': {
    answers: { 200: { description: 'The checkout page (HTML).', media: ['text/html'] }, 400: { description: 'A forged, expired or foreign session: a page (HTML) saying so.', media: ['text/html'] } },
    tags: ['payment'], summary: 'The sandbox bank\'s checkout page',
    description: 'The test bank of the sandbox provider (PAYMENT_PROVIDER=sandbox): an HTML page to succeed or fail the order.',
  },
  'POST /api/payment/sandbox/checkout/{orderId}': {
    answers: { 303: { description: 'Back to the site\'s return address with the signed order token.' }, 400: { description: 'A forged, expired or foreign session: a page (HTML) saying so; nothing is sent.', media: ['text/html'] } },
    requestBody: { media: 'application/x-www-form-urlencoded', description: 'The page\'s form: session, outcome (succeed or fail), method.' },
    tags: ['payment'], summary: 'Succeed or fail a sandbox order',
    description: 'The sandbox bank\'s form: sends the signed notification, then a 303 back to the site\'s return address.',
  },
  'GET /api/payment/sandbox/logos/{file}': {
    answers: { 200: { description: 'The logo (SVG).', media: ['image/svg+xml'] } },
    tags: ['payment'], summary: 'A sandbox bank\'s logo',
    description: 'A bank\'s logo badge (SVG) of the sandbox provider.',
  },
  'POST /api/admin/payment/{reference}/refund': {
    tags: ['admin', 'payment'], summary: 'Record a refund',
    description: 'Records an administrator\'s refund of an order (amount in EUR, by default the rest of the order); the money moves '
      + 'at the provider or the bank. REFUND_EXCEEDS_PAYMENT, ORDER_NOT_PAID.',
  },
  // ---- command API: administrators
  'PUT /api/admin/user/{id}': {
    tags: ['admin'], summary: 'Approve an account',
    description: 'Spec §7: `{ is_approved }` for the account (a UUID) in the path.',
  },
  'PUT /api/admin/participant/{id}': {
    tags: ['admin'], summary: 'Mark paid or rename a participant',
    description: 'Spec §7: `{ is_paid }`, or `{ id, full_name }` (at most 32 characters) for the participant in the path.',
  },
  'PUT /api/admin/team/{id}': {
    tags: ['admin'], summary: 'Edit a team',
    description: 'Spec §7: `{ id, team_name, description, icon }` for the team in the path; an empty icon deletes the team\'s image.',
  },
  'PUT /api/admin/deleteentities/{entity}': {
    tags: ['admin'], summary: 'Delete users, teams or entries',
    description: 'Spec §7: `{ ids }` of the kind in the path (user, team or entry, singular or plural, in any case) → `{ success, '
      + 'count, position }`. Deleting a user keeps their entries, so the team keeps its km (as the person\'s own erasure does); '
      + 'deleting a team deletes its entries.',
  },
  'POST /api/admin/resetpassword': {
    tags: ['admin'], summary: 'Set any account\'s password',
    description: 'Spec §7: `{ userId, newPassword }`; every session of that account ends.',
  },
  'PUT /api/admin/settings': {
    tags: ['admin', 'settings'], summary: 'Switch registration or entry insertion',
    description: 'The global switches of spec §4: `{ registrationEnabled?, entryInsertionEnabled? }`.',
  },
  'POST /api/admin/review': {
    tags: ['admin', 'entries'], summary: 'Approve or reject flagged entries',
    description: '`{ ids, decision: approve | reject, note }` → `{ success, count, position }`, all in one append: one entry not '
      + 'awaiting a decision answers 409 ENTRY_NOT_UNDER_REVIEW and decides none.',
  },
  'POST /api/admin/draw/commit': {
    tags: ['draw'], summary: 'Commit to the prize draw',
    description: 'Publishes the draw\'s commitment (the seed\'s hash), its instant and the number of winners, before the draw; '
      + '`year` names another edition than the current one.',
  },
  'POST /api/admin/draw/reveal': {
    tags: ['draw'], summary: 'Reveal the seed and draw',
    description: 'Reveals the seed matching the commitment; the winners follow from it and the eligible participants, as anyone can '
      + 'check with GET /api/draw.',
  },
  'POST /api/admin/editions': {
    tags: ['editions'], summary: 'Plan an edition',
    description: 'A new edition (dates, route, fees, limits) as a draft → 201 `{ edition, position }`. A broken field answers its own '
      + 'code with the field\'s path.',
  },
  'PUT /api/admin/editions/{year}': {
    tags: ['editions'], summary: 'Change an edition',
    description: 'The edition of `year`, whole → `{ edition, position }`.',
  },
  'POST /api/admin/editions/{year}/open': {
    tags: ['editions'], summary: 'Open an edition',
    description: 'The edition of `year` opens (registration, then entries by its dates) → `{ edition, position }`.',
  },
  'POST /api/admin/editions/{year}/close': {
    tags: ['editions'], summary: 'Close an edition',
    description: 'The edition of `year` closes; its results become final and public → `{ edition, position }`.',
  },
  'POST /api/admin/parked/{position}/retry': {
    tags: ['operations'], summary: 'Retry a parked event',
    description: 'The projections (or `projection`) try the parked event at `position` again.',
  },
  'POST /api/admin/parked/{position}/skip': {
    tags: ['operations'], summary: 'Skip a parked event',
    description: 'The projections (or `projection`) skip the parked event at `position` for good, with a `reason`.',
  },
  'POST /api/admin/replay': {
    tags: ['operations'], summary: 'Rebuild the read models',
    description: 'Queues a replay of every read model from the event log → `{ jobId }`. 409 CONCURRENCY_CONFLICT while one is '
      + 'waiting or running.',
  },
  'GET /api/admin/replay/{jobId}': {
    tags: ['operations'], summary: 'A replay\'s progress',
    description: 'The replay job\'s state (waiting, active, completed, failed), progress and result.',
  },
  'POST /api/admin/queues/session': {
    tags: ['operations'], summary: 'A cookie for the queue board',
    description: 'Sets an HttpOnly cookie, scoped to /api/admin/queues and valid 15 minutes, with which a browser opens the queue '
      + 'board (Bull Board) at /api/admin/queues.',
  },
  'POST /api/admin/announcements': {
    tags: ['announcements'], summary: 'Send an announcement',
    description: 'Records an announcement to an audience in both languages and starts mailing it → `{ announcementId }`.',
  },
  'POST /api/admin/announcements/test': {
    tags: ['announcements'], summary: 'Send an announcement to oneself',
    description: 'Mails the text once in each language to the caller\'s own address only, marked as a test; nothing is recorded.',
  },
  'GET /api/admin/queues/announcements': {
    tags: ['announcements'], summary: 'The latest announcements and their progress',
    description: 'The latest announcements with how many mails were sent, failed and wait.',
  },
  'GET /api/admin/queues/announcements/recipients': {
    tags: ['announcements'], summary: 'How many an audience reaches',
    description: 'How many the `audience` has now, per language, to show before sending.',
  },
  'POST /api/unsubscribe': {
    tags: ['announcements'], summary: 'Unsubscribe from the newsletter',
    description: '`{ token }` from a mail\'s link: the participant gets no more newsletter mails. 400 INVALID_UNSUBSCRIBE_LINK for a '
      + 'forged link or an erased person.',
  },
  'POST /api/unsubscribe/{token}': {
    tags: ['announcements'], summary: 'Unsubscribe in one click (RFC 8058)',
    description: 'The one-click unsubscribe of RFC 8058 that mail clients post (`List-Unsubscribe=One-Click`); the body is not needed.',
  },
};

/** The key of an operation in API_OPERATIONS: `GET /api/team/{id}`. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** `as-of` → `AsOf`, `share.png` → `SharePng`, `jobId` → `JobId`. */
function pascal(segment: string): string {
  return segment.split(/[^A-Za-z0-9]+/).filter((word) => word !== '').map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/**
 * The operationId derived from a route: the method in lower case, then every static segment of
 * the path after /api, then `By<Name>` when the path ends in a parameter
 * (`GET /api/team/{id}/entries` → `getTeamEntries`, `GET /api/team/{id}` → `getTeamById`,
 * `GET /api/me/data.csv` → `getMeDataCsv`). Stable while the route is.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== 'api');
  const last = segments.at(-1);
  const parameter = last !== undefined && /^\{.+\}$/.test(last) ? `By${pascal(last.slice(1, -1))}` : '';
  return method.toLowerCase() + segments.filter((segment) => !/^\{.+\}$/.test(segment)).map(pascal).join('') + parameter;
}
