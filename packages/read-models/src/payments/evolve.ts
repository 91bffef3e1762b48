/**
 * payments' pure fold: participant, payment and team events → each live participant's
 * payment info (paid, child, fee; spec §3 "Payment info") and the money raised per team and
 * overall (fees and donations, EUR cents), and every order's status for its payer
 * (pending → paid, or → failed → paid; paid is final).
 *
 * Spec §9: a member of a company team (TeamRegistered.company, remembered in
 * `companyTeams` for the members who join later) owes the company fee whatever their birth year;
 * the money counted is the provider's confirmed payments, plus administrators' manual payments
 * (ParticipantPaymentMarked.manualCents: added with a mark, taken back with an unmark), minus the
 * refunds administrators record (PaymentRefunded, from the refunded order's kind).
 *
 * The overall totals keep everything ever raised: a deleted team's row is hidden (`deleted`), not
 * dropped, and money confirmed for it later still counts, both in its hidden row and overall.
 * Imported participants marked paid (they paid in the old system, which kept no amounts) add the
 * fee the import assumed (ParticipantPaymentMarked.assumedCents, source 'import'); a mark whose fee
 * could not be known adds to `unknownCount` instead, so that the totals it feeds read as "at
 * least". Marks imported before the import assumed fees carry neither and add nothing.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import { isChild, orderReference, participantFee, type DomainEvent } from '@sinilill/domain';
import { YEAR_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import type { EditionLookup } from '../projection-editions';

/** rm.payment_info: one live participant. */
export interface PaymentInfo {
  participantId: number;
  teamId: number;
  /** The participant's edition (ParticipantRegistered.edition), whose fees apply. */
  edition: number;
  isPaid: boolean;
  isChild: boolean;
  /** The participation fee, EUR cents: the company fee in a company team, else by birth year. */
  feeCents: number;
  /** True in a company team; absent otherwise. */
  company?: boolean;
  /** True for the team's captain; absent otherwise. */
  isCaptain?: boolean;
}

/** rm.fundraising_teams: money raised for one team, EUR cents. */
export interface FundraisingTeam {
  teamId: number;
  /** The team's edition (TeamRegistered.edition). */
  edition: number;
  feesCents: number;
  donationsCents: number;
  /** True once the team is deleted: left out of the public list, still in the totals. */
  deleted: boolean;
  /** Paid marks of unknown amount: the team raised at least fees + donations. */
  unknownCount: number;
}

/** rm.payment_orders: one order (ids and cents only). */
export interface PaymentOrderRow {
  orderId: string;
  reference: string;
  participantId: number;
  kind: 'fee' | 'donation';
  /** EUR cents. */
  amountCents: number;
  status: 'pending' | 'paid' | 'failed';
  /** Refunded so far, EUR cents; absent: nothing. */
  refundedCents?: number;
  /** A team fee's covered participants; absent: the payer alone. */
  covers?: number[];
}

/**
 * The rows a batch touches; `null` in `info` marks a participant deleted in this batch. The
 * `changed*` sets (and `totalsChanged`) name what the projection writes back.
 */
export interface PaymentsWorkingSet {
  info: Map<number, PaymentInfo | null>;
  teams: Map<number, FundraisingTeam>;
  totals: { feesCents: number; donationsCents: number; unknownCount: number };
  /** Orders by order id (those this batch's events name, as loaded). */
  orders: Map<string, PaymentOrderRow>;
  /**
   * Company teams by team id: true for one, false for a team known not to be (its
   * TeamRegistered in this batch). The teams of this batch's participants are loaded; a team
   * absent here is no company team.
   */
  companyTeams: Map<number, boolean>;
  /** Company teams registered in this batch (rows to insert). */
  newCompanyTeams: Set<number>;
  changedInfo: Set<number>;
  changedOrders: Set<string>;
  changedTeams: Set<number>;
  totalsChanged: boolean;
}

export const PAYMENTS_EVENTS = [
  'TeamRegistered',
  'ParticipantRegistered',
  'ParticipantPaymentMarked',
  'ParticipantDeleted',
  'PaymentOrdered',
  'PaymentSucceeded',
  'PaymentFailed',
  'DonationReceived',
  'PaymentRefunded',
  'TeamDeleted',
] as const;

/** A working set with nothing loaded and the given totals. */
export function emptyPaymentsWorkingSet(totals = { feesCents: 0, donationsCents: 0, unknownCount: 0 }): PaymentsWorkingSet {
  return {
    info: new Map(), teams: new Map(), totals: { ...totals }, orders: new Map(), companyTeams: new Map(), newCompanyTeams: new Set(),
    changedInfo: new Set(), changedTeams: new Set(), changedOrders: new Set(), totalsChanged: false,
  };
}

function team(set: PaymentsWorkingSet, teamId: number): FundraisingTeam {
  let row = set.teams.get(teamId);
  if (!row) {
    // Every team registered since editions are data has its row from its TeamRegistered, so a
    // team without one is of the log from before them.
    row = { teamId, edition: YEAR_OF_EVENTS_BEFORE_EDITIONS, feesCents: 0, donationsCents: 0, deleted: false, unknownCount: 0 };
    set.teams.set(teamId, row);
  }
  set.changedTeams.add(teamId);
  return row;
}

/** Sets a known order's status; a paid order stays paid (a later failure changes nothing). */
function settleOrder(set: PaymentsWorkingSet, orderId: string, status: 'paid' | 'failed'): void {
  const row = set.orders.get(orderId);
  if (!row || row.status === 'paid') return;
  row.status = status;
  set.changedOrders.add(orderId);
}

/** Adds `cents` (negative: takes them away) to a team's and the overall fees or donations. */
function count(set: PaymentsWorkingSet, teamId: number, kind: 'fee' | 'donation', cents: number): void {
  const row = team(set, teamId);
  if (kind === 'fee') {
    row.feesCents += cents;
    set.totals.feesCents += cents;
  } else {
    row.donationsCents += cents;
    set.totals.donationsCents += cents;
  }
  set.totalsChanged = true;
}

/**
 * Folds one event into the working set; a participant's fee follows the fee rules of their
 * edition (`editions`, by ParticipantRegistered.edition); other types are ignored.
 * @throws UnknownEditionError (projection-editions.ts) for a participant of an edition the log lacks.
 */
export function evolvePayments(set: PaymentsWorkingSet, recorded: RecordedEvent, editions: EditionLookup): void {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'TeamRegistered':
      // The team's row of money raised, with its edition (money counts per edition).
      team(set, event.data.teamId).edition = event.data.edition;
      set.companyTeams.set(event.data.teamId, event.data.company === true);
      if (event.data.company === true) set.newCompanyTeams.add(event.data.teamId);
      return;
    case 'ParticipantRegistered': {
      const { participantId, teamId, birthYear, isCaptain } = event.data;
      const edition = editions(event.data.edition);
      const existing = set.info.get(participantId);
      const company = set.companyTeams.get(teamId) === true;
      set.info.set(participantId, {
        participantId, teamId, edition: event.data.edition, isPaid: existing?.isPaid ?? false, isChild: isChild(birthYear, edition),
        feeCents: participantFee(birthYear, company, edition),
        ...(company ? { company: true } : {}),
        ...(isCaptain ? { isCaptain: true } : {}),
      });
      set.changedInfo.add(participantId);
      return;
    }
    case 'ParticipantPaymentMarked': {
      const row = set.info.get(event.data.participantId);
      if (!row) return; // never registered here, or deleted: nothing to show
      row.isPaid = event.data.isPaid;
      set.changedInfo.add(row.participantId);
      // money an administrator verified by hand counts as a fee; an unmark takes it back.
      const manual = event.data.source === 'admin' ? (event.data.manualCents ?? 0) : 0;
      if (manual > 0) count(set, row.teamId, 'fee', event.data.isPaid ? manual : -manual);
      if (event.data.source === 'import' && event.data.isPaid) {
        const assumed = event.data.assumedCents ?? 0;
        if (assumed > 0) count(set, row.teamId, 'fee', assumed);
        else {
          team(set, row.teamId).unknownCount += 1;
          set.totals.unknownCount += 1;
          set.totalsChanged = true;
        }
      }
      return;
    }
    case 'ParticipantDeleted':
      set.info.set(event.data.participantId, null);
      set.changedInfo.add(event.data.participantId);
      return;
    case 'PaymentOrdered': {
      const { orderId, participantId, kind, amountCents, covers } = event.data;
      set.orders.set(orderId, {
        orderId, reference: orderReference(orderId), participantId, kind, amountCents, status: 'pending', ...(covers ? { covers: [...covers] } : {}),
      });
      set.changedOrders.add(orderId);
      return;
    }
    case 'PaymentFailed':
      settleOrder(set, event.data.orderId, 'failed');
      return;
    case 'PaymentSucceeded':
      settleOrder(set, event.data.orderId, 'paid');
      count(set, event.data.teamId, 'fee', event.data.amountCents);
      return;
    case 'DonationReceived':
      settleOrder(set, event.data.orderId, 'paid');
      count(set, event.data.teamId, 'donation', event.data.amountCents);
      return;
    case 'PaymentRefunded': {
      // the money raised goes down by what was given back.
      const { orderId, teamId, kind, amountCents, refundedCents } = event.data;
      count(set, teamId, kind, -amountCents);
      const order = set.orders.get(orderId);
      if (order) {
        order.refundedCents = refundedCents;
        set.changedOrders.add(orderId);
      }
      return;
    }
    case 'TeamDeleted':
      team(set, event.data.teamId).deleted = true;
      return;
    default:
      return;
  }
}
