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
import { EditionViewAnswer } from './edition-queries';

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

/**
 * The answer of every edition command: the edition after it, as the read side shows one
 * (edition-queries.ts EditionViewAnswer), and the global position of the command's last event
 * (the edition's last one when nothing changed): sent as `x-min-position`, the query API answers
 * the edition as changed (docs/decisions/0006).
 */
export const EditionCommandAnswer = Type.Object({ edition: EditionViewAnswer, position: Type.Integer() });
export type EditionCommandAnswer = Type.Static<typeof EditionCommandAnswer>;
