/**
 * Activity files: POST /api/team/{id}/activity-files reads one GPX, TCX or FIT
 * file (the raw bytes, Content-Type application/octet-stream, its name in ACTIVITY_FILE_NAME_HEADER)
 * into a proposal and stores nothing; POST /api/team/{id}/activity-files/confirm makes a proposal
 * entries: one per part of the file (a sport of a multi-sport file, a day of a file spanning days),
 * all or none. distance: km to 0.01; performed_at: YYYY-MM-DD of the part's start in
 * Europe/Tallinn, null when the file has no time at all (the member then chooses the day).
 */
import Type from 'typebox';
import { EntryAnswer } from './entries';
import { SingleLine } from './text';

/** Largest activity file, bytes (20 MiB); a larger body is answered 413 ACTIVITY_FILE_TOO_LARGE. */
export const ACTIVITY_FILE_BODY_LIMIT = 20 * 1024 * 1024;

/** The request header with the file's name, percent-encoded (encodeURIComponent): headers are ASCII. */
export const ACTIVITY_FILE_NAME_HEADER = 'x-file-name';

/** Parts of one file at most (sports × days): a week-long multi-sport file fits, a forged one does not. */
export const ACTIVITY_FILE_PARTS_MAX = 64;

const Format = Type.Union([Type.Literal('gpx'), Type.Literal('tcx'), Type.Literal('fit')]);
/** The track for a small map: [longitude, latitude] degrees, at most 500 points; empty indoors. */
const Track = Type.Array(Type.Tuple([Type.Number(), Type.Number()]));

/** One part of a file: what becomes one entry. */
export const ActivityFilePartAnswer = Type.Object({
  /** 0-based, in start order; the confirmation names parts by it. */
  index: Type.Integer({ minimum: 0 }),
  /** The file's own sport name for the part ('running', 'Biking', 'swimming'…), or null. */
  sport: Type.Union([Type.String(), Type.Null()]),
  /** A preset entry type from the part's sport, or null (the member chooses). */
  entry_type: Type.Union([Type.String(), Type.Null()]),
  /** km, two decimals, > 0. */
  distance: Type.Number(),
  /** YYYY-MM-DD, Europe/Tallinn; null when the file has no time (the member chooses the day). */
  performed_at: Type.Union([Type.String(), Type.Null()]),
  /** ISO-8601 UTC of the part's first point with a time, or null. */
  started_at: Type.Union([Type.String(), Type.Null()]),
  track: Track,
});
export type ActivityFilePartAnswer = Type.Static<typeof ActivityFilePartAnswer>;

/** What a file proposes; `token` carries it, signed, to the confirmation. */
export const ActivityFileProposalAnswer = Type.Object({
  file_name: Type.String(),
  format: Format,
  /** SHA-256 of the file's bytes, 64 lower-case hex digits. */
  sha256: Type.String(),
  /** km, two decimals: the parts' sum. */
  distance: Type.Number(),
  /** The first part's day (YYYY-MM-DD, Europe/Tallinn), or null when the file has no time. */
  performed_at: Type.Union([Type.String(), Type.Null()]),
  /** The first part's preset entry type, or null. */
  entry_type: Type.Union([Type.String(), Type.Null()]),
  /** The first part's track. */
  track: Track,
  /** Every part, in start order (at least one). */
  parts: Type.Array(ActivityFilePartAnswer),
  /** True when the file already counts for a live entry (confirming it is then refused). */
  already_used: Type.Boolean(),
  /** Signed proposal (team, member, file hash, format, each part's km, day and type), valid ACTIVITY_FILE_TOKEN_SECONDS. */
  token: Type.String(),
  /** ISO-8601 UTC until which the token is accepted. */
  expires_at: Type.String(),
});
export type ActivityFileProposalAnswer = Type.Static<typeof ActivityFileProposalAnswer>;

/** What the member chose for one part: its type, and its day where the file had none. */
export const ConfirmActivityFilePart = Type.Object(
  {
    index: Type.Integer({ minimum: 0, maximum: ACTIVITY_FILE_PARTS_MAX - 1 }),
    /** A preset ActivityType key or free text; required when the part had none. */
    entry_type: Type.Optional(SingleLine({ minLength: 1, maxLength: 64 })),
    /**
     * YYYY-MM-DD in the edition's dates (else INVALID_PERFORMED_AT); accepted only for a part the
     * file gave no day (else INVALID_REQUEST), and then required.
     */
    performed_at: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);
export type ConfirmActivityFilePart = Type.Static<typeof ConfirmActivityFilePart>;

/**
 * POST /api/team/{id}/activity-files/confirm: the proposal's token, and what the member chose.
 * `entry_type` applies to every part without its own choice (the single-part clients' field);
 * absent `parts` means every part with the proposal's values.
 */
export const ConfirmActivityFileBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 16_000 }),
    entry_type: Type.Optional(SingleLine({ minLength: 1, maxLength: 64 })),
    parts: Type.Optional(Type.Array(ConfirmActivityFilePart, { minItems: 1, maxItems: ACTIVITY_FILE_PARTS_MAX })),
  },
  { additionalProperties: false },
);
export type ConfirmActivityFileBody = Type.Static<typeof ConfirmActivityFileBody>;

/** The confirmation's answer: `entry` the first part's (as for one entry), `entries` every part's in order. */
export const ConfirmActivityFileAnswer = Type.Object({
  success: Type.Boolean(),
  entry: EntryAnswer.properties.entry,
  entries: Type.Array(EntryAnswer.properties.entry),
  /** Global position of the append's last event; send it back as x-min-position. */
  position: Type.Integer(),
});
export type ConfirmActivityFileAnswer = Type.Static<typeof ConfirmActivityFileAnswer>;
