/**
 * The prize draw anyone can check: the administrators' commands
 * (POST /api/admin/draw/commit, POST /api/admin/draw/reveal; ADMIN only) and the public answer
 * (GET /api/draw), which carries everything scripts/verify-draw.mjs needs to recompute the winners.
 */
import Type from 'typebox';

const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** POST /api/admin/draw/commit: the seed's SHA-256 hex, the draw's ISO instant, the number of winners (1..100). */
export const DrawCommitBody = Type.Object(
  {
    commitment: Sha256Hex,
    drawAt: Type.String({ minLength: 1, maxLength: 40 }),
    winners: Type.Integer({ minimum: 1, maximum: 100 }),
  },
  { additionalProperties: false },
);
export type DrawCommitBody = Type.Static<typeof DrawCommitBody>;

/** POST /api/admin/draw/reveal: the secret seed (printable ASCII, 16..200 characters). */
export const DrawRevealBody = Type.Object({ seed: Type.String({ minLength: 16, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' }) }, { additionalProperties: false });
export type DrawRevealBody = Type.Static<typeof DrawRevealBody>;

/**
 * `?year=` of the draw's commands: the edition whose draw it is (four digits); absent, the current
 * edition's. An administrator reaches an earlier edition's draw this way while the next one runs.
 */
export const DrawYearQuery = Type.Object({ year: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })) }, { additionalProperties: false });
export type DrawYearQuery = Type.Static<typeof DrawYearQuery>;

/** The answer of both commands. */
export const DrawCommandAnswer = Type.Object({ success: Type.Boolean(), position: Type.Integer() });

/** A winner as published: first name (null once erased) and team name only, with the participant id the list holds. */
export const DrawWinner = Type.Object({
  participantId: Type.Integer(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  teamName: Type.Union([Type.String(), Type.Null()]),
});

/**
 * GET /api/draw: `status` none (no commitment yet), committed, or drawn. After the draw: the seed,
 * the eligible participant ids (ascending; opaque numbers, no names), their count and hash, the
 * deadline `asOf`, and the winners in draw order. `procedure` names the algorithm verify-draw.mjs
 * implements.
 */
export const DrawAnswer = Type.Object({
  year: Type.Integer(),
  status: Type.Union([Type.Literal('none'), Type.Literal('committed'), Type.Literal('drawn')]),
  procedure: Type.Literal('sinilill-draw-v1'),
  commitment: Type.Union([Sha256Hex, Type.Null()]),
  drawAt: Type.Union([Type.String(), Type.Null()]),
  winnersCount: Type.Union([Type.Integer(), Type.Null()]),
  seed: Type.Union([Type.String(), Type.Null()]),
  asOf: Type.Union([Type.String(), Type.Null()]),
  eligible: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  eligibleCount: Type.Union([Type.Integer(), Type.Null()]),
  eligibleListHash: Type.Union([Sha256Hex, Type.Null()]),
  winners: Type.Array(DrawWinner),
});
export type DrawAnswer = Type.Static<typeof DrawAnswer>;
