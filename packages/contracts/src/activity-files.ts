/**
 * Activity files: POST /api/team/{id}/activity-files reads one GPX, TCX or FIT
 * file (the raw bytes, Content-Type application/octet-stream, its name in ACTIVITY_FILE_NAME_HEADER)
 * into a proposal and stores nothing; POST /api/team/{id}/activity-files/confirm makes a proposal an
 * entry. distance: km to 0.01; performed_at: YYYY-MM-DD of the activity's start in Europe/Tallinn.
 */
import Type from 'typebox';
import { SingleLine } from './text';

/** Largest activity file, bytes (20 MiB); a larger body is answered 413 ACTIVITY_FILE_TOO_LARGE. */
export const ACTIVITY_FILE_BODY_LIMIT = 20 * 1024 * 1024;

/** The request header with the file's name, percent-encoded (encodeURIComponent): headers are ASCII. */
export const ACTIVITY_FILE_NAME_HEADER = 'x-file-name';

/** What a file proposes; `token` carries it, signed, to the confirmation. */
export const ActivityFileProposalAnswer = Type.Object({
  file_name: Type.String(),
  format: Type.Union([Type.Literal('gpx'), Type.Literal('tcx'), Type.Literal('fit')]),
  /** SHA-256 of the file's bytes, 64 lower-case hex digits. */
  sha256: Type.String(),
  /** km, two decimals. */
  distance: Type.Number(),
  /** YYYY-MM-DD, Europe/Tallinn. */
  performed_at: Type.String(),
  /** A preset entry type from the file's sport, or null (the member chooses). */
  entry_type: Type.Union([Type.String(), Type.Null()]),
  /** The track for a small map: [longitude, latitude] degrees, at most 500 points; empty indoors. */
  track: Type.Array(Type.Tuple([Type.Number(), Type.Number()])),
  /** True when the file already counts for a live entry (confirming it is then refused). */
  already_used: Type.Boolean(),
  /** Signed proposal (team, member, file hash, distance, date, type, format), valid ACTIVITY_FILE_TOKEN_SECONDS. */
  token: Type.String(),
  /** ISO-8601 UTC until which the token is accepted. */
  expires_at: Type.String(),
});
export type ActivityFileProposalAnswer = Type.Static<typeof ActivityFileProposalAnswer>;

/** POST /api/team/{id}/activity-files/confirm: the proposal's token, and the type when the member chose one. */
export const ConfirmActivityFileBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 2000 }),
    /** A preset ActivityType key or free text; required when the proposal had none. */
    entry_type: Type.Optional(SingleLine({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ConfirmActivityFileBody = Type.Static<typeof ConfirmActivityFileBody>;
