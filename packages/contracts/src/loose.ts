/**
 * Tolerant reading of the places where spec §7 names a shape loosely: a
 * client written from the spec may send any reasonable reading of such a phrase, and every one is
 * answered alike; everything else stays strict (unknown fields, other values → 400
 * INVALID_REQUEST). The places, and the readings accepted:
 *
 * | §7 phrase | route | readings |
 * |---|---|---|
 * | "entity type entry, ids" | PUT /entry/delete | the key `entity`, `entity_type`, `entityType` or `type` (or none); its value `entry` or `entries` in lower, upper or title case; `ids` as integers or numeric strings |
 * | "{ids}; entity user, team or entry" | PUT /admin/deleteentities/{entity} | the path's entity singular or plural, in lower, upper or title case; team and entry ids as integers or numeric strings (user ids are UUIDs) |
 * | "token, id" | POST /confirmaccount | the user's id as `id` or `userId` |
 * | "email, lang; other shape not shown" | POST /requestpasswordreset | `lang` as spec §3's `est`/`eng` or as `et`/`en` |
 *
 * The schemas list the readings (so the API description shows them); the routes turn each into
 * the one meaning with the functions below.
 */
import Type from 'typebox';

/** `word` in lower, upper and title case (`entry`, `ENTRY`, `Entry`). */
function cases(word: string): string[] {
  return [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)];
}

/** A string schema of `singular` and `plural` in lower, upper and title case. */
export function EntityName(singular: string, plural: string, description: string) {
  return Type.Union([...cases(singular), ...cases(plural)].map((value) => Type.Literal(value)), { description });
}

/**
 * The entity an EntityName reading names, singular and lower case (`Entries` → `entry`,
 * `USERS` → `user`).
 */
export function entityOf(reading: string): string {
  const lower = reading.toLowerCase();
  if (lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  return lower.endsWith('s') ? lower.slice(0, -1) : lower;
}

/** A positive integer id written as a number or as a numeric string (`42` or `"42"`), at most 15 digits. */
export const LooseId = Type.Union([
  Type.Integer({ minimum: 1 }),
  Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'the id as a numeric string' }),
], { description: 'a positive integer id, as a number or a numeric string' });
export type LooseId = Type.Static<typeof LooseId>;

/** The number a LooseId reading names. */
export function idOf(reading: number | string): number {
  return typeof reading === 'number' ? reading : Number(reading);
}
