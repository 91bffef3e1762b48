/**
 * The events of stream `draw-{year}`: the prize draw anyone can check (draw/index.ts). The union
 * of all events and their registry are in ../events.ts.
 */

/**
 * An administrator published the commitment of the edition's prize draw: the SHA-256 (64
 * lower-case hex digits) of a secret seed kept by the administrator, the announced instant of the
 * draw (ISO-8601 UTC, not before the eligibility deadline) and the number of winners.
 */
export interface DrawCommitted {
  type: 'DrawCommitted';
  data: { year: number; commitment: string; drawAt: string; winners: number; committedAt: string };
}
/** The administrator revealed the seed; its SHA-256 equals the commitment. */
export interface DrawSeedRevealed {
  type: 'DrawSeedRevealed';
  data: { year: number; seed: string; revealedAt: string };
}
/**
 * The winners computed from the seed and the eligible list (packages/commands draw procedure,
 * scripts/verify-draw.mjs): `eligible` the eligible participant ids ascending (as of the
 * deadline `asOf`, ISO-8601 UTC), `eligibleListHash` the SHA-256 hex of them joined by "\n",
 * `winners` in draw order. No names: the public answer reads them from the read models, so an
 * erased person's name disappears (docs/decisions/0002).
 */
export interface DrawWinnersChosen {
  type: 'DrawWinnersChosen';
  data: {
    year: number;
    asOf: string;
    eligible: number[];
    eligibleCount: number;
    eligibleListHash: string;
    winners: { participantId: number; teamId: number }[];
  };
}
export type DrawEvent = DrawCommitted | DrawSeedRevealed | DrawWinnersChosen;
