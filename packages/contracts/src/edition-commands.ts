/**
 * The administrators' edition commands (ADMIN only):
 *
 * | route | body | answer |
 * |---|---|---|
 * | POST /api/admin/editions | Edition | 201 {edition: EditionView, position} |
 * | PUT /api/admin/editions/{year} | Edition | 200 {edition: EditionView, position} |
 * | POST /api/admin/editions/{year}/open | — | 200 {edition: EditionView, position} |
 * | POST /api/admin/editions/{year}/close | — | 200 {edition: EditionView, position} |
 *
 * The body is the whole edition (packages/domain edition/types.ts). Its schema here only says
 * "a JSON object" and caps the size: the domain's validation (edition/validate.ts) answers each
 * broken rule with its own code and the field's path (`{message, field}`), which a generic schema
 * failure (INVALID_REQUEST) would hide from the admin.
 */
import Type from 'typebox';

/**
 * Largest edition body, bytes: the 2025 edition with its 24 missions is about 12 KiB; 256 KiB
 * leaves room for long descriptions in both languages and refuses anything else (413 REQUEST_TOO_LARGE).
 */
export const EDITION_BODY_LIMIT = 256 * 1024;

/** The edition's data as sent: any JSON object, checked by the domain (see the module's comment). */
export const EditionBody = Type.Object({}, { additionalProperties: true, description: 'The whole edition (Edition of packages/domain), validated by the domain' });
export type EditionBody = Type.Static<typeof EditionBody>;

/** `/admin/editions/{year}`: a year of four digits. */
export const EditionYearParams = Type.Object({ year: Type.String({ pattern: '^[0-9]{4}$' }) }, { additionalProperties: false });
export type EditionYearParams = Type.Static<typeof EditionYearParams>;

/** Where an edition stands at an instant (domain EditionLifePhase). */
export const EditionLifePhaseSchema = Type.Union([
  Type.Literal('planned'), Type.Literal('upcoming'), Type.Literal('registration'), Type.Literal('running'),
  Type.Literal('lateEntries'), Type.Literal('final'), Type.Literal('closed'),
]);

/**
 * An edition as the APIs answer it: its status in the log, its life phase and whether
 * registration is open at the answer's instant, today's date in the edition's zone, and its data.
 */
export const EditionViewSchema = Type.Object({
  year: Type.Integer(),
  status: Type.Union([Type.Literal('planned'), Type.Literal('opened'), Type.Literal('closed')]),
  phase: EditionLifePhaseSchema,
  registrationOpen: Type.Boolean(),
  /** YYYY-MM-DD in the edition's time zone. */
  today: Type.String(),
  /** The Edition (packages/domain edition/types.ts). */
  edition: Type.Unknown(),
});

/**
 * The answer of every edition command: the edition after it, and the global position of the
 * command's last event (the edition's last one when nothing changed; send it as `x-min-position` to read the edition
 * back from the query API, docs/decisions/0006).
 */
export const EditionCommandAnswer = Type.Object({ edition: EditionViewSchema, position: Type.Integer() });
export type EditionCommandAnswer = Type.Static<typeof EditionCommandAnswer>;
