/**
 * Entry commands (spec §7 `/entry`, `/entry/{id}/edit`, `/entry/delete`) and their answers.
 * distance: km, multiple of 0.01; performed_at: YYYY-MM-DD in the edition's April (spec §5).
 */
import Type from 'typebox';
import { EntityName, LooseId } from './loose';
import { SingleLine } from './text';

const Distance = Type.Number({ minimum: 0, maximum: 100000 });
const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const EntryType = SingleLine({ minLength: 1, maxLength: 64 });

/**
 * The fields of a whole §3 Entry (and of an admin row) that the server keeps itself: a client
 * written from the spec may send the entity as it read it. Each is compared with the
 * stored value: equal changes nothing, different answers 409 FIELD_MISMATCH with `field`. On a
 * new entry, id and created_at are null or absent; team_id is the member's team.
 */
const EchoedEntryFields = {
  id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  team_id: Type.Optional(Type.Integer({ minimum: 1 })),
  created_at: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  /** Admin rows (spec §3 "admin rows add participant (full_name) and team (team_name)"). */
  participant: Type.Optional(Type.Object({ full_name: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]) }, { additionalProperties: false })),
  team: Type.Optional(Type.Object({ team_name: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]) }, { additionalProperties: false })),
  /**
   * The team page's moderation state of the entry (moderation.ts EntryReview), sent back
   * with an entry as read: the server keeps it, so it is accepted and not compared.
   */
  review: Type.Optional(Type.Object({}, { additionalProperties: true })),
};

/** POST /api/entry: the distance, its type and day; optionally the member and the echoed §3 fields. */
export const AddEntryBody = Type.Object(
  {
    distance: Distance,
    entry_type: EntryType,
    performed_at: DateOnly,
    /** The team member the distance belongs to; default: the caller. */
    participant_id: Type.Optional(Type.Integer({ minimum: 1 })),
    ...EchoedEntryFields,
  },
  { additionalProperties: false },
);
export type AddEntryBody = Type.Static<typeof AddEntryBody>;

/** PUT /api/entry/{id}/edit: as AddEntryBody; `id`, when sent, must be the path's. */
export const EditEntryBody = Type.Object(
  {
    distance: Distance,
    entry_type: EntryType,
    performed_at: DateOnly,
    participant_id: Type.Optional(Type.Integer({ minimum: 1 })),
    ...EchoedEntryFields,
  },
  { additionalProperties: false },
);
export type EditEntryBody = Type.Static<typeof EditEntryBody>;

/** The entity of PUT /api/entry/delete, each reading of spec §7's "entity type entry" (loose.ts). */
const DeletedEntity = EntityName('entry', 'entries', 'what is deleted: entries, spelt `entry` or `entries` in any of lower, upper or title case');

/**
 * PUT /api/entry/delete, spec §7 "entity type entry, ids" read tolerantly (loose.ts): the entity
 * under `entity`, `entity_type`, `entityType` or `type` (or none), the ids as integers or numeric
 * strings; any other field or value is INVALID_REQUEST.
 */
export const DeleteEntriesBody = Type.Object(
  {
    entity: Type.Optional(DeletedEntity),
    entity_type: Type.Optional(DeletedEntity),
    entityType: Type.Optional(DeletedEntity),
    type: Type.Optional(DeletedEntity),
    ids: Type.Array(LooseId, { minItems: 1, maxItems: 500, description: 'the entries\' ids, as integers or numeric strings' }),
  },
  {
    additionalProperties: false,
    description: 'Spec §7 "entity type entry, ids": the entity may be named by `entity`, `entity_type`, `entityType` or `type` (or left out), as `entry` or `entries` in any case; ids may be numbers or numeric strings.',
  },
);
export type DeleteEntriesBody = Type.Static<typeof DeleteEntriesBody>;

/** An entry as the client sees it (spec §3 "Entry"). */
export const Entry = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  participant_id: Type.Integer(),
  distance: Type.Number(),
  entry_type: Type.String(),
  performed_at: Type.String(),
  created_at: Type.String(),
});
export type Entry = Type.Static<typeof Entry>;

export const EntryAnswer = Type.Object({
  success: Type.Boolean(),
  entry: Entry,
  /** Global position of the command's last event; send it back as x-min-position. */
  position: Type.Integer(),
});
export type EntryAnswer = Type.Static<typeof EntryAnswer>;

export const DeleteEntriesAnswer = Type.Object({
  success: Type.Boolean(),
  count: Type.Integer(),
  position: Type.Integer(),
});
export type DeleteEntriesAnswer = Type.Static<typeof DeleteEntriesAnswer>;
