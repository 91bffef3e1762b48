/**
 * Entry commands (spec §7 `/entry`, `/entry/{id}/edit`, `/entry/delete`) and their answers.
 * distance: km, multiple of 0.01; performed_at: YYYY-MM-DD in the edition's April (spec §5).
 */
import Type from 'typebox';
import { SingleLine } from './text';

const Distance = Type.Number({ minimum: 0, maximum: 100000 });
const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const EntryType = SingleLine({ minLength: 1, maxLength: 64 });

export const AddEntryBody = Type.Object(
  {
    distance: Distance,
    entry_type: EntryType,
    performed_at: DateOnly,
    /** The team member the distance belongs to; default: the caller. */
    participant_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type AddEntryBody = Type.Static<typeof AddEntryBody>;

export const EditEntryBody = Type.Object(
  {
    distance: Distance,
    entry_type: EntryType,
    performed_at: DateOnly,
    participant_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type EditEntryBody = Type.Static<typeof EditEntryBody>;

export const DeleteEntriesBody = Type.Object(
  {
    entity: Type.Optional(Type.Literal('entry')),
    ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
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
