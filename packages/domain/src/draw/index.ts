/**
 * The edition's prize draw that anyone can check (spec §1 "Prizes are raffled
 * among participants who registered, paid and collected at least one flower", §4 "prize draw 5 May
 * 17:00"). Stream `draw-{year}`: DrawCommitted (the SHA-256 of a secret seed, the draw's instant,
 * the number of winners), then at the draw DrawSeedRevealed + DrawWinnersChosen in one append.
 *
 * Eligibility (eligibleAsOfDeadline) is folded from the log as of the deadline: the end of
 * `edition.lateEntriesUntil` (3 May 24:00 Europe/Tallinn). A participant is eligible when, as of
 * then, they were registered and not deleted, their paid flag was set, and their team had
 * collected at least one blue flower beyond the base flower every team starts with (spec §4
 * "Flowers: 1 + …": the base one is given, not collected) — flowers belong to teams (spec §3) —
 * counting only the entries the entry ledger counts (a rejected entry counts nowhere).
 *
 * The winners' computation needs SHA-256/HMAC, so it lives on the server (packages/commands
 * draw-procedure.ts) and is repeated by scripts/verify-draw.mjs; the decider receives its result
 * in the command (values from outside arrive in the command, decider.ts).
 */
import { isPrivileged } from '../actors';
import { localDate } from '../dates';
import { roundedKm } from '../distance';
import type { Decider, DecisionContext } from '../decider';
import type { Edition } from '../edition';
import { DomainError } from '../errors';
import type { DrawEvent, EntryEvent, ParticipantDeleted, ParticipantPaymentMarked, ParticipantRegistered } from '../events';
import { dispatchRecorded, handledTypes, type EventHandlers } from '../entry/event-handlers';
import { EntryLedger, countOf } from '../entry/ledger';
import { teamProgress } from '../progress';

/** A SHA-256 in lower-case hex. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Most winners one draw may name. */
export const DRAW_WINNERS_MAX = 100;

export interface DrawState {
  committed: boolean;
  commitment: string | null;
  drawAt: string | null;
  winners: number;
  revealed: boolean;
}

export interface CommitDraw {
  type: 'CommitDraw';
  data: { year: number; commitment: string; drawAt: string; winners: number; lateEntriesUntil: string; timeZone: string };
}
export interface RevealDraw {
  type: 'RevealDraw';
  /**
   * `seedSha256` the SHA-256 hex of the seed's UTF-8 bytes, `eligible` ascending participant ids
   * as of `asOf`, `eligibleListHash` and `winners` from the draw procedure over them.
   */
  data: {
    year: number;
    seed: string;
    seedSha256: string;
    asOf: string;
    eligible: number[];
    eligibleListHash: string;
    winners: { participantId: number; teamId: number }[];
  };
}
export type DrawCommand = CommitDraw | RevealDraw;

/** True when `instantIso` lies after the end of `lateEntriesUntil` (YYYY-MM-DD) in `timeZone`. */
export function isAfterDeadline(instantIso: string, lateEntriesUntil: string, timeZone: string): boolean {
  return localDate(instantIso, timeZone) > lateEntriesUntil;
}

/**
 * The draw's decider. CommitDraw: administrators (and the system) only, else FORBIDDEN, a 64-hex commitment, a draw instant
 * after the deadline and 1..DRAW_WINNERS_MAX winners (INVALID_REQUEST), once per edition
 * (DRAW_ALREADY_COMMITTED). RevealDraw: the same; DRAW_NOT_COMMITTED, DRAW_ALREADY_DONE,
 * DRAW_NOT_YET_ALLOWED before `drawAt`, DRAW_SEED_MISMATCH when the seed's hash is not the
 * commitment.
 */
export const drawDecider: Decider<DrawCommand, DrawEvent, DrawState, DecisionContext> = {
  initialState: () => ({ committed: false, commitment: null, drawAt: null, winners: 0, revealed: false }),
  decide(command, state, context) {
    if (!isPrivileged(context.actor)) {
      throw new DomainError('FORBIDDEN', 'the draw is for administrators');
    }
    if (command.type === 'CommitDraw') {
      const { year, commitment, drawAt, winners, lateEntriesUntil, timeZone } = command.data;
      if (state.committed) throw new DomainError('DRAW_ALREADY_COMMITTED');
      if (!SHA256_HEX.test(commitment)) throw new DomainError('INVALID_REQUEST', 'commitment is a SHA-256 in lower-case hex');
      if (!Number.isInteger(winners) || winners < 1 || winners > DRAW_WINNERS_MAX) throw new DomainError('INVALID_REQUEST', 'winners');
      const at = Date.parse(drawAt);
      if (Number.isNaN(at)) throw new DomainError('INVALID_REQUEST', 'drawAt is an ISO instant');
      if (!isAfterDeadline(new Date(at).toISOString(), lateEntriesUntil, timeZone)) {
        throw new DomainError('DRAW_NOT_YET_ALLOWED', 'the draw comes after the eligibility deadline');
      }
      return [{ type: 'DrawCommitted', data: { year, commitment, drawAt: new Date(at).toISOString(), winners, committedAt: context.now } }];
    }
    const { year, seed, seedSha256, asOf, eligible, eligibleListHash, winners } = command.data;
    if (!state.committed) throw new DomainError('DRAW_NOT_COMMITTED');
    if (state.revealed) throw new DomainError('DRAW_ALREADY_DONE');
    if (Date.parse(context.now) < Date.parse(state.drawAt!)) throw new DomainError('DRAW_NOT_YET_ALLOWED', `the draw is at ${state.drawAt}`);
    if (seedSha256 !== state.commitment) throw new DomainError('DRAW_SEED_MISMATCH');
    return [
      { type: 'DrawSeedRevealed', data: { year, seed, revealedAt: context.now } },
      { type: 'DrawWinnersChosen', data: { year, asOf, eligible, eligibleCount: eligible.length, eligibleListHash, winners } },
    ];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DrawCommitted':
        return { ...state, committed: true, commitment: event.data.commitment, drawAt: event.data.drawAt, winners: event.data.winners };
      case 'DrawSeedRevealed':
        return { ...state, revealed: true };
      default:
        return state;
    }
  },
};

/** The events eligibleAsOfDeadline folds: the members' and every entry event (the entry ledger). */
type DrawEligibilityEvent = ParticipantRegistered | ParticipantPaymentMarked | ParticipantDeleted | EntryEvent;

interface EligibilityFold {
  /** The draw's edition: only its participants take part (a person of several editions is one participant in each). */
  year: number;
  members: Map<number, { teamId: number; paid: boolean }>;
  entries: EntryLedger;
}

const toLedger = (event: EntryEvent, fold: EligibilityFold) => {
  fold.entries.apply(event);
};

/** What each event does to the eligibility fold; entry events go to the entry ledger. */
export const drawEligibilityHandlers: EventHandlers<DrawEligibilityEvent, [EligibilityFold]> = {
  ParticipantRegistered: ({ data }, fold) => {
    // Other editions' participants are not members of this draw; their marks and deletions then find no member.
    if (data.edition === fold.year) fold.members.set(data.participantId, { teamId: data.teamId, paid: false });
  },
  ParticipantPaymentMarked: ({ data }, fold) => {
    const member = fold.members.get(data.participantId);
    if (member) member.paid = data.isPaid;
  },
  ParticipantDeleted: ({ data }, fold) => {
    fold.members.delete(data.participantId);
  },
  EntryAdded: toLedger,
  EntryEdited: toLedger,
  EntryDeleted: toLedger,
  EntryFlagged: toLedger,
  EntryReviewApproved: toLedger,
  EntryReviewRejected: toLedger,
};

/** The event types eligibleAsOfDeadline folds. */
export const DRAW_ELIGIBILITY_EVENTS = handledTypes(drawEligibilityHandlers);

/** An event of the log as the fold reads it (a RecordedEvent's type and data, in global order). */
export interface LoggedEvent {
  type: string;
  data: unknown;
}

/** The instant fields of the folded events (ISO-8601 UTC, the command's clock). */
interface Instants {
  registeredAt?: string;
  createdAt?: string;
  editedAt?: string;
  deletedAt?: string;
  flaggedAt?: string;
  decidedAt?: string;
}

/** An eligible participant: id and team as of the deadline. */
export interface EligibleParticipant {
  participantId: number;
  teamId: number;
}

/**
 * The participants eligible for the draw as of the end of `edition.lateEntriesUntil` (Europe/
 * Tallinn), ascending by participant id, from the DRAW_ELIGIBILITY_EVENTS of the log in global
 * order (see the module comment for the rule). Only the participants of `edition` (their
 * ParticipantRegistered's `edition`, 2025 for events written before editions): a draw never sees
 * another edition's people, and their teams are the edition's own, so the flowers counted are too.
 *
 * "As of": an event counts when its own instant (registeredAt, createdAt, editedAt, deletedAt,
 * flaggedAt, decidedAt — on the configured clock, which the importer sets to the original time)
 * falls on or before the deadline's date in the edition's time zone. ParticipantPaymentMarked
 * carries no instant: it takes the latest instant seen before it in the log (the log's clock), so
 * a mark recorded after any later-than-deadline event does not count. A rejection counts whenever
 * it was decided: it judges an entry logged by the deadline, and the review of the last days'
 * entries comes after it (docs/decisions/0069). Team distances are the entry ledger's counting
 * entries summed in hundredths of km and rounded as spec §4 (teamProgress).
 */
export function eligibleAsOfDeadline(events: readonly LoggedEvent[], edition: Edition): EligibleParticipant[] {
  const fold: EligibilityFold = { year: edition.year, members: new Map(), entries: new EntryLedger() };
  let clock: string | null = null;
  for (const event of events) {
    const data = (event.data ?? {}) as Instants;
    const own = data.registeredAt ?? data.createdAt ?? data.editedAt ?? data.deletedAt ?? data.flaggedAt ?? data.decidedAt;
    if (own !== undefined && (clock === null || own > clock)) clock = own;
    const instant = own ?? clock;
    const late = instant !== null && isAfterDeadline(instant, edition.lateEntriesUntil, edition.timeZone);
    if (late && event.type !== 'EntryReviewRejected') continue;
    dispatchRecorded(drawEligibilityHandlers, event, fold);
  }
  const teamHundredths = new Map<number, number>();
  for (const entry of fold.entries.values()) {
    const counted = countOf(entry);
    if (counted) teamHundredths.set(counted.teamId, (teamHundredths.get(counted.teamId) ?? 0) + counted.hundredths);
  }
  const collected = (teamId: number) => {
    const km = roundedKm(teamHundredths.get(teamId) ?? 0);
    return teamProgress(km, edition).blueFlowers - edition.flowers.base;
  };
  return [...fold.members.entries()]
    .filter(([, member]) => member.paid && collected(member.teamId) >= 1)
    .map(([participantId, member]) => ({ participantId, teamId: member.teamId }))
    .sort((a, b) => a.participantId - b.participantId);
}
