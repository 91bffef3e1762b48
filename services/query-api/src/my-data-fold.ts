/**
 * Pure folds of "my data": the events that name one person, in global order,
 * into the sections of their download (contracts my-data.ts): account, participant, entries (each
 * with every version; what an entry is now comes from the domain's entry ledger) and payments (each order with its outcomes and refunds), and the CSV rows
 * of every section. No I/O here: the route reads the events (my-data-query.ts) and hands them in.
 * Only the person's own events reach the folder (MyDataReader.names), so nothing of anyone else
 * is folded in.
 */
import type { MyAccount, MyDataCsvColumn, MyEntry, MyEvent, MyParticipant, MyPayment } from '@sinilill/contracts';
import {
  EntryLedger,
  accountDecider,
  asEntryEvent,
  dispatch,
  fromHundredths,
  participantDecider,
  type EntryEvent,
  type EventHandlers,
  type LedgerEntry,
  type AccountEvent,
  type AccountState,
  type ParticipantEvent,
  type ParticipantState,
} from '@sinilill/domain';
import type { RecordedEvent } from '@sinilill/event-store';
import { toHistoryEvent } from './history-fold';

type Data = Record<string, unknown>;

const dataOf = (event: RecordedEvent): Data =>
  (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Data;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/**
 * The decider's evolve, or the state unchanged for an event type it does not know (a type added
 * to the stream later): the download still lists that event, and never fails on it.
 */
function evolveKnown<State, Event>(evolve: (state: State, event: Event) => State, state: State, event: Event): State {
  try {
    return evolve(state, event);
  } catch {
    return state;
  }
}

/** What the download says an entry is now: the ledger's facts (a rejected entry counts nowhere). */
function entryFacts(entry: LedgerEntry): Pick<MyEntry, 'team_id' | 'status' | 'distance' | 'entry_type' | 'performed_at'> {
  return {
    team_id: entry.teamId,
    status: entry.deleted ? 'deleted' : entry.review === 'rejected' ? 'rejected' : 'active',
    distance: fromHundredths(entry.hundredths),
    entry_type: entry.entryType,
    performed_at: entry.day,
  };
}

type MyEntryVersion = MyEntry['versions'][number];
const version = (type: EntryEvent['type'], at: string, entry: LedgerEntry | null): MyEntryVersion => ({
  type, at,
  distance: entry ? fromHundredths(entry.hundredths) : null, entry_type: entry?.entryType ?? null, performed_at: entry?.day ?? null,
});

/**
 * The version each entry event adds to the entry's list: an add or an edit shows the entry as it
 * left it; a deletion, a flag and a review decision show when they happened.
 */
export const myEntryVersions: EventHandlers<EntryEvent, [LedgerEntry], MyEntryVersion> = {
  EntryAdded: ({ type, data }, after) => version(type, data.createdAt, after),
  EntryEdited: ({ type, data }, after) => version(type, data.editedAt, after),
  EntryDeleted: ({ type, data }) => version(type, data.deletedAt, null),
  EntryFlagged: ({ type, data }) => version(type, data.flaggedAt, null),
  EntryReviewApproved: ({ type, data }) => version(type, data.decidedAt, null),
  EntryReviewRejected: ({ type, data }) => version(type, data.decidedAt, null),
};

/** An account's and a participant's streams (the deciders fold these). */
const ACCOUNT_STREAM = /^user-/;
const PARTICIPANT_STREAM = /^participant-/;

/**
 * Folds one person's events (in global order; each event at most once) into the download's
 * sections. Memory: one state per entry and per order, never the events themselves.
 */
export class MyDataFolder {
  private account: AccountState = accountDecider.initialState();
  private participant: ParticipantState = participantDecider.initialState();
  private readonly ledger = new EntryLedger();
  private readonly entries = new Map<number, MyEntry>();
  private readonly payments = new Map<string, MyPayment>();

  /** Folds one event that names the person. */
  add(event: RecordedEvent): void {
    const data = dataOf(event);
    const entryEvent = asEntryEvent(event);
    if (ACCOUNT_STREAM.test(event.stream)) {
      this.account = evolveKnown(accountDecider.evolve, this.account, { type: event.type, data } as AccountEvent);
    } else if (PARTICIPANT_STREAM.test(event.stream)) {
      this.participant = evolveKnown(participantDecider.evolve, this.participant, { type: event.type, data } as ParticipantEvent);
    } else if (entryEvent) {
      this.addEntryEvent(entryEvent);
    } else if (event.stream.startsWith('payment-')) {
      this.addPaymentEvent(event.type, data);
    }
  }

  private addEntryEvent(event: EntryEvent): void {
    const { after } = this.ledger.apply(event);
    if (!after) return; // events of an entry never added: nothing to show
    const id = after.entryId;
    const entry: MyEntry = this.entries.get(id) ?? {
      id, team_id: null, status: 'active', distance: null, entry_type: null, performed_at: null, created_at: null, versions: [],
    };
    Object.assign(entry, entryFacts(after));
    entry.versions.push(dispatch(myEntryVersions, event, after));
    if (event.type === 'EntryAdded') entry.created_at = event.data.createdAt;
    this.entries.set(id, entry);
  }

  private addPaymentEvent(type: string, data: Data): void {
    const orderId = text(data.orderId);
    if (orderId === null) return;
    const payment: MyPayment = this.payments.get(orderId) ?? {
      order_id: orderId, reference: null, kind: null, status: 'ordered', amount_cents: 0, fee_cents: null, refunded_cents: 0,
      provider: null, ordered_at: null, outcomes: [],
    };
    switch (type) {
      case 'PaymentOrdered':
        Object.assign(payment, {
          reference: text(data.reference), kind: text(data.kind), amount_cents: int(data.amountCents) ?? 0,
          fee_cents: int(data.feeCents), provider: text(data.provider), ordered_at: text(data.orderedAt),
        });
        break;
      case 'PaymentSucceeded':
      case 'DonationReceived':
        payment.status = 'succeeded';
        payment.outcomes.push({ type, at: text(data.succeededAt ?? data.receivedAt), amount_cents: int(data.amountCents), reason: null });
        break;
      case 'PaymentFailed':
        // Not final: a late confirmation still records the payment (spec §4).
        if (payment.status !== 'succeeded') payment.status = 'failed';
        payment.outcomes.push({ type, at: text(data.failedAt), amount_cents: null, reason: text(data.reason) });
        break;
      case 'PaymentRefunded':
        payment.refunded_cents = int(data.refundedCents) ?? payment.refunded_cents + (int(data.amountCents) ?? 0);
        if (data.full === true) payment.status = 'refunded';
        payment.outcomes.push({ type, at: text(data.refundedAt), amount_cents: int(data.amountCents), reason: text(data.reason) });
        break;
      default:
        return;
    }
    this.payments.set(orderId, payment);
  }

  /** The account section; `userId` for an account whose stream was empty (never for a live one). */
  accountSection(userId: string): MyAccount {
    const a = this.account;
    return {
      user_id: a.userId ?? userId, email: a.email, full_name: a.fullName, role: a.role, approved: a.approved,
      created_at: a.registeredAt,
    };
  }

  /** The participant section (null without a participant); `teamName` from the read models. */
  participantSection(teamName: string | null): MyParticipant | null {
    const p = this.participant;
    if (!p.exists || p.participantId === null) return null;
    return {
      id: p.participantId,
      team: p.teamId === null ? null : { id: p.teamId, team_name: teamName },
      full_name: p.fullName, email: p.email, birth_year: p.birthYear, gender: p.gender,
      captain: p.isCaptain, paid: p.isPaid, newsletter: p.newsletter, registered_at: p.registeredAt,
    };
  }

  /** The participant's team id, for its name (null without one). */
  get teamId(): number | null {
    return this.participant.exists ? this.participant.teamId : null;
  }

  /** Entries by id, ascending. */
  entrySection(): MyEntry[] {
    return [...this.entries.values()].sort((a, b) => a.id - b.id);
  }

  /** Orders by ordering time (then id). */
  paymentSection(): MyPayment[] {
    return [...this.payments.values()].sort((a, b) => (a.ordered_at ?? '').localeCompare(b.ordered_at ?? '') || a.order_id.localeCompare(b.order_id));
  }
}

/** An event as the download shows it (the admin history's view, snake_case instants). */
export function toMyEvent(event: RecordedEvent): MyEvent {
  const view = toHistoryEvent(event);
  return {
    position: view.position, stream: view.stream, revision: view.revision, type: view.type,
    recorded_at: view.recordedAt, actor: view.actor, data: view.data,
  };
}

/** One CSV row: the columns of its section, the rest absent (written empty). */
export type MyDataCsvRow = Partial<Record<MyDataCsvColumn, string | number | boolean | null>>;

/** The CSV rows of the sections before the events: account, participant, entries, payments. */
export function sectionRows(account: MyAccount, participant: MyParticipant | null, entries: readonly MyEntry[], payments: readonly MyPayment[]): MyDataCsvRow[] {
  const rows: MyDataCsvRow[] = [{
    section: 'account', id: account.user_id, email: account.email, full_name: account.full_name, role: account.role,
    approved: account.approved, created_at: account.created_at,
  }];
  if (participant) {
    rows.push({
      section: 'participant', id: participant.id, email: participant.email, full_name: participant.full_name,
      team: participant.team?.team_name ?? participant.team?.id ?? null, birth_year: participant.birth_year, gender: participant.gender,
      captain: participant.captain, paid: participant.paid, newsletter: participant.newsletter, created_at: participant.registered_at,
    });
  }
  for (const e of entries) {
    rows.push({
      section: 'entry', id: e.id, status: e.status, team: e.team_id, distance_km: e.distance, entry_type: e.entry_type,
      performed_at: e.performed_at, created_at: e.created_at, data: JSON.stringify(e.versions),
    });
  }
  for (const p of payments) {
    rows.push({
      section: 'payment', id: p.order_id, type: p.kind, status: p.status, amount_cents: p.amount_cents, refunded_cents: p.refunded_cents,
      reference: p.reference, created_at: p.ordered_at, data: JSON.stringify(p.outcomes),
    });
  }
  return rows;
}

/** The CSV row of one event. */
export function eventRow(event: MyEvent): MyDataCsvRow {
  const actor = event.actor ? (event.actor.userId === null ? event.actor.role : `${event.actor.role}:${event.actor.userId}`) : null;
  return {
    section: 'event', id: event.position, type: event.type, stream: event.stream, created_at: event.recorded_at, actor,
    data: JSON.stringify(event.data),
  };
}
