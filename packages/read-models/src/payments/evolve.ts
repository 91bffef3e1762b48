/**
 * payments' pure fold (issue 7): participant, payment and team events → each live participant's
 * payment info (paid, child, fee by birth year; spec §3 "Payment info") and the money raised per
 * team and overall from succeeded payments (fees and donations, EUR cents), and every order's
 * status for its payer (issue 14: pending → paid, or → failed → paid; paid is final).
 *
 * The overall totals keep everything ever raised: a deleted team's row is hidden (`deleted`), not
 * dropped, and money confirmed for it later still counts, both in its hidden row and overall.
 * Imported participants marked paid (they paid in the old system) show as paid but add no money.
 */
import type { RecordedEvent } from '@sinilill/event-store';
import { feeFor, isChild, orderReference, type DomainEvent, type Edition } from '@sinilill/domain';

/** rm.payment_info: one live participant. */
export interface PaymentInfo {
  participantId: number;
  teamId: number;
  isPaid: boolean;
  isChild: boolean;
  /** The participation fee by birth year, EUR cents. */
  feeCents: number;
}

/** rm.fundraising_teams: money raised for one team, EUR cents. */
export interface FundraisingTeam {
  teamId: number;
  feesCents: number;
  donationsCents: number;
  /** True once the team is deleted: left out of the public list, still in the totals. */
  deleted: boolean;
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
}

/**
 * The rows a batch touches; `null` in `info` marks a participant deleted in this batch. The
 * `changed*` sets (and `totalsChanged`) name what the projection writes back.
 */
export interface PaymentsWorkingSet {
  info: Map<number, PaymentInfo | null>;
  teams: Map<number, FundraisingTeam>;
  totals: { feesCents: number; donationsCents: number };
  /** Orders by order id (those this batch's events name, as loaded). */
  orders: Map<string, PaymentOrderRow>;
  changedInfo: Set<number>;
  changedOrders: Set<string>;
  changedTeams: Set<number>;
  totalsChanged: boolean;
}

export const PAYMENTS_EVENTS = [
  'ParticipantRegistered',
  'ParticipantPaymentMarked',
  'ParticipantDeleted',
  'PaymentOrdered',
  'PaymentSucceeded',
  'PaymentFailed',
  'DonationReceived',
  'TeamDeleted',
] as const;

/** A working set with nothing loaded and the given totals. */
export function emptyPaymentsWorkingSet(totals = { feesCents: 0, donationsCents: 0 }): PaymentsWorkingSet {
  return {
    info: new Map(), teams: new Map(), totals: { ...totals }, orders: new Map(),
    changedInfo: new Set(), changedTeams: new Set(), changedOrders: new Set(), totalsChanged: false,
  };
}

function team(set: PaymentsWorkingSet, teamId: number): FundraisingTeam {
  let row = set.teams.get(teamId);
  if (!row) {
    row = { teamId, feesCents: 0, donationsCents: 0, deleted: false };
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

/** Folds one event into the working set for `edition` (its fee rules); other types are ignored. */
export function evolvePayments(set: PaymentsWorkingSet, recorded: RecordedEvent, edition: Edition): void {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'ParticipantRegistered': {
      const { participantId, teamId, birthYear } = event.data;
      const existing = set.info.get(participantId);
      set.info.set(participantId, {
        participantId, teamId, isPaid: existing?.isPaid ?? false, isChild: isChild(birthYear, edition), feeCents: feeFor(birthYear, edition),
      });
      set.changedInfo.add(participantId);
      return;
    }
    case 'ParticipantPaymentMarked': {
      const row = set.info.get(event.data.participantId);
      if (!row) return; // never registered here, or deleted: nothing to show
      row.isPaid = event.data.isPaid;
      set.changedInfo.add(row.participantId);
      return;
    }
    case 'ParticipantDeleted':
      set.info.set(event.data.participantId, null);
      set.changedInfo.add(event.data.participantId);
      return;
    case 'PaymentOrdered': {
      const { orderId, participantId, kind, amountCents } = event.data;
      set.orders.set(orderId, { orderId, reference: orderReference(orderId), participantId, kind, amountCents, status: 'pending' });
      set.changedOrders.add(orderId);
      return;
    }
    case 'PaymentFailed':
      settleOrder(set, event.data.orderId, 'failed');
      return;
    case 'PaymentSucceeded':
      settleOrder(set, event.data.orderId, 'paid');
      team(set, event.data.teamId).feesCents += event.data.amountCents;
      set.totals.feesCents += event.data.amountCents;
      set.totalsChanged = true;
      return;
    case 'DonationReceived':
      settleOrder(set, event.data.orderId, 'paid');
      team(set, event.data.teamId).donationsCents += event.data.amountCents;
      set.totals.donationsCents += event.data.amountCents;
      set.totalsChanged = true;
      return;
    case 'TeamDeleted':
      team(set, event.data.teamId).deleted = true;
      return;
    default:
      return;
  }
}
