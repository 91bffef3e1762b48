/**
 * The payment commands (spec §2 "Payment", §4, §7 /payment/*, §9 fees;
 * docs/decisions/0018), behind CommandService's payment methods: ordering the fee or a
 * donation (a company team's captain also the fee of every unpaid member at once), recording what
 * the provider says, an administrator's mark and refund.
 *
 * Like every command here, each gathers the facts other streams hold (the participant, the team's
 * company flag, the members' paid flags) and leaves the rules to the pure deciders; money is
 * integer EUR cents. What spans streams is one atomic append on the write path
 * (execute-command.ts): a fee's PaymentSucceeded with the paid marks of everyone it
 * covers, a full refund with the marks it takes back; the covered participants' streams are
 * checked at the append even when they get no event, and a conflict is decided again from a fresh
 * read there (no retry loop of its own). The shapes are in payment-types.ts.
 */
import {
  DomainError,
  editionForChanges,
  participantDecider,
  paymentDecider,
  streams,
  teamDecider,
  withEdition,
  type ActingUser,
  type DecisionContext,
  type PaymentRefunded,
  type PaymentState,
  type TeamFeeFacts,
} from '@sinilill/domain';
import { editionSourceOf } from '../context';
import { executeCommand, handleCommand } from '../execute-command';
import { deterministicUuid, foldStream, type CommandMetadata } from '../metadata';
import type {
  PaymentCommandDependencies,
  PaymentCommandRequest,
  PaymentOrderInput,
  PaymentOrderView,
  PaymentOutcomeInput,
  RefundInput,
  RefundResult,
} from './types';

export type * from './types';

/** The system as actor: the payment provider's notifications. */
const SYSTEM_ACTOR: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function viewOfPayment(state: PaymentState): PaymentOrderView {
  return {
    orderId: state.orderId!, reference: state.reference!, kind: state.kind!, amountCents: state.amountCents,
    participantId: state.participantId!, teamId: state.teamId!, provider: state.provider!, status: state.status,
    covers: state.covers ?? null, refundedCents: state.refundedCents ?? 0,
  };
}

/** The payment commands over one event store (see the module's comment). */
export class PaymentCommands {
  constructor(private readonly deps: PaymentCommandDependencies) {}

  /**
   * The decision context of a payment of a participant of edition `year`: that edition's fees.
   * `refuseClosed`: a new order or an administrator's mark in a closed edition is refused
   * (EDITION_CLOSED: the archive is read-only); what the provider reports and a refund of money
   * already taken are still recorded (the money moved whatever the edition's state).
   */
  private async context(request: { actor: ActingUser; now?: Date }, year: number | null, refuseClosed: boolean): Promise<DecisionContext> {
    const ctx: DecisionContext = { now: (request.now ?? this.deps.now()).toISOString(), actor: request.actor, entryInsertionEnabled: true };
    const catalog = await editionSourceOf(this.deps).catalog();
    const current = catalog.current(ctx.now)?.edition;
    const base = current ? { ...ctx, edition: current } : ctx;
    if (refuseClosed) return withEdition(base, editionForChanges(catalog, year, base));
    return withEdition(base, year === null ? undefined : catalog.get(year)?.edition);
  }

  /** The edition year of a participant (null: unknown). */
  private async editionOf(participantId: number | null): Promise<number | null> {
    if (participantId === null) return null;
    return foldStream(participantDecider, await this.deps.store.readStream(streams.participant(participantId))).edition;
  }

  /** True when the team's stream says it is a company team. */
  async isCompanyTeam(teamId: number): Promise<boolean> {
    return foldStream(teamDecider, await this.deps.store.readStream(streams.team(teamId))).company === true;
  }

  /**
   * Orders the participation fee or a donation for the acting participant (spec §7 POST
   * /payment/order): PaymentOrdered on a new stream payment-{orderId}, the order id derived from
   * the command id (a repeated command finds the same order). The fee follows the participant's
   * stream: participantFee — the company fee (fees.companyPerPersonCents) in a company team, else
   * by birth year (1500 or 500 cents in 2025). With `forTeam` a company team's captain
   * orders the fee of every unpaid live member at once (members from `membersOfTeam`, each checked
   * against its stream; the captain among them when unpaid).
   * @returns the order and the position of PaymentOrdered.
   * @throws DomainError FORBIDDEN (not a USER with a live participant; a team fee by someone else
   *   than the captain), NOT_SELECTED, AMOUNT_NOT_MATCH, ALREADY_PAID_FOR, AMOUNT_TOO_LOW (checked
   *   in that order, see createPaymentDecider), INVALID_REQUEST (a team fee of a team that is no
   *   company team, or with a donation).
   */
  async orderPayment(input: PaymentOrderInput, request: PaymentCommandRequest): Promise<{ order: PaymentOrderView; position: number }> {
    const { actor } = request;
    if (actor.role !== 'USER' || actor.participantId === null) throw new DomainError('FORBIDDEN', 'only participants pay');
    const participantId = actor.participantId;
    const participant = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(participantId)));
    if (!participant.exists || participant.deleted) throw new DomainError('FORBIDDEN', `participant ${participantId} is gone`);
    const teamId = participant.teamId!;
    const company = await this.isCompanyTeam(teamId);
    const team: TeamFeeFacts | undefined = input.forTeam
      ? { company, isCaptain: participant.isCaptain, unpaidMemberIds: company && participant.isCaptain ? await this.unpaidMembers(teamId, participantId) : [] }
      : undefined;
    const orderId = deterministicUuid(`payment-order:${request.metadata.commandId}`);
    const result = await handleCommand(this.deps.store, streams.payment(orderId), paymentDecider, {
      type: 'OrderPayment',
      data: {
        orderId, participantId,
        participant: { teamId, birthYear: participant.birthYear, isPaid: participant.isPaid, company },
        kind: input.isPaid ? 'donation' : 'fee',
        grandTotalCents: input.grandTotalCents, amountCents: input.amountCents,
        provider: input.provider, country: input.country, method: input.method, countryMethods: input.countryMethods,
        ...(team ? { team } : {}),
      },
    }, await this.context(request, participant.edition, true), request.metadata);
    return { order: await this.paymentOrder(orderId), position: result.position };
  }

  /**
   * The team's live members whose fee is not paid, by their streams (ascending; `payer` among them
   * when unpaid, even before the read model lists them).
   */
  private async unpaidMembers(teamId: number, payer: number): Promise<number[]> {
    if (!this.deps.membersOfTeam) throw new Error('PaymentCommands: membersOfTeam is needed for a team fee');
    const candidates = new Set([payer, ...(await this.deps.membersOfTeam(teamId))]);
    const unpaid: number[] = [];
    for (const id of [...candidates].sort((a, b) => a - b)) {
      const member = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(id)));
      if (member.exists && !member.deleted && member.teamId === teamId && !member.isPaid) unpaid.push(id);
    }
    return unpaid;
  }

  /** A payment order from its stream. @throws DomainError NOT_FOUND for an unknown order. */
  async paymentOrder(orderId: string): Promise<PaymentOrderView> {
    const state = foldStream(paymentDecider, await this.deps.store.readStream(streams.payment(orderId)));
    if (!state.exists) throw new DomainError('NOT_FOUND', `order ${orderId}`);
    return viewOfPayment(state);
  }

  /**
   * The order an administrator names: a whole order id as it is, or a reference (8 hex
   * digits, any case) looked up in the read model.
   * @returns the order id.
   * @throws DomainError NOT_FOUND (no order has it), INVALID_REQUEST (two orders share the
   *   reference: name the order id).
   */
  async orderIdOf(reference: string): Promise<string> {
    if (ORDER_ID.test(reference)) return reference.toLowerCase();
    if (!this.deps.ordersOfReference) throw new Error('PaymentCommands: ordersOfReference is needed to find an order by its reference');
    const found = await this.deps.ordersOfReference(reference.toUpperCase());
    if (found.length === 0) throw new DomainError('NOT_FOUND', `no order ${reference}`);
    if (found.length > 1) throw new DomainError('INVALID_REQUEST', `${found.length} orders have the reference ${reference}: name the order id`);
    return found[0]!;
  }

  /**
   * Records what a verified provider notification (or return) says, as the system:
   * PaymentSucceeded for a paid fee — with ParticipantPaymentMarked {isPaid: true, source:
   * 'payment', orderId} in the SAME atomic append for the payer, or for every participant a team
   * fee covers, unless marked paid already or deleted — DonationReceived for a paid
   * donation, PaymentFailed for a failure. Idempotent: a succeeded order is final, and the command
   * id (`payment:<orderId>:<status>:<providerStatus>`) makes a repeated notification a repeat; two
   * racing deliveries conflict on a stream's revision and the loser decides again and finds the
   * order settled. The events correlate with the order's command.
   * @returns whether anything was appended, its position (0 when nothing), and the order after it.
   * @throws DomainError NOT_FOUND (unknown order), INVALID_NOTIFICATION (another provider, amount or
   *   currency than the order's), CONCURRENCY_CONFLICT (after repeated races).
   */
  async recordPaymentOutcome(outcome: PaymentOutcomeInput, request: { now?: Date } = {}): Promise<{ recorded: boolean; position: number; order: PaymentOrderView }> {
    const { store } = this.deps;
    const stream = streams.payment(outcome.orderId);
    const history = await store.readStream(stream);
    const state = foldStream(paymentDecider, history);
    if (!state.exists) throw new DomainError('NOT_FOUND', `order ${outcome.orderId}`);
    const metadata: CommandMetadata = {
      commandId: `payment:${outcome.orderId}:${outcome.status}:${outcome.providerStatus}`,
      correlationId: history[0]!.metadata.correlationId,
      causationId: history[0]!.id,
    };
    const command = { type: 'RecordPaymentOutcome' as const, data: outcome };
    const covered = (state.covers ?? [state.participantId!]).map((participantId) => ({ participantId, stream: streams.participant(participantId) }));
    const result = await executeCommand(store, {
      streams: [stream, ...covered.map((c) => c.stream)],
      known: new Map([[stream, history]]),
      context: await this.context({ actor: SYSTEM_ACTOR, ...(request.now ? { now: request.now } : {}) }, await this.editionOf(state.participantId), false),
      metadata,
      // The payment part first: the participants' parts see whether the order succeeded.
      decide: (read, ctx) => {
        const events = paymentDecider.decide(command, read.fold(stream, paymentDecider), ctx);
        const feePaid = events.some((event) => event.type === 'PaymentSucceeded');
        return [{ stream, events }, ...covered.map(({ participantId, stream: of }) => {
          const participant = read.fold(of, participantDecider);
          if (!feePaid || !participant.exists || participant.deleted || participant.isPaid) return { stream: of, events: [] };
          return {
            stream: of,
            events: participantDecider.decide({
              type: 'MarkPayment', data: { participantId, isPaid: true, source: 'payment', orderId: outcome.orderId },
            }, participant, ctx),
          };
        })];
      },
    });
    // A repeated notification answers the position of the first run's first event, as it always has.
    const position = result.repeated ? result.prior!.globalPosition : result.position;
    return { recorded: result.events.length > 0, position, order: await this.paymentOrder(outcome.orderId) };
  }

  /**
   * An administrator records a refund of a paid order: PaymentRefunded on the
   * order's stream and, when the refunds reach the whole amount of a fee order, in the same atomic
   * append ParticipantPaymentMarked {isPaid: false, source: 'refund', orderId} for every participant
   * whose paid flag this order set and still stands (the payer, or a team fee's members; someone
   * who paid otherwise since keeps the flag). Idempotent by command id (docs/decisions/0007): a repeat answers the
   * first run's order and position.
   * @returns the order after the refund, this refund's cents, the order's refunded cents right after
   *   it (a repeat answers the first run's figures, whatever came since) and the position of its
   *   last event.
   * @throws DomainError FORBIDDEN (not an administrator), NOT_FOUND, ORDER_NOT_PAID,
   *   INVALID_AMOUNT (0), REFUND_EXCEEDS_PAYMENT, INVALID_REQUEST / VALUE_TOO_LONG (the reason),
   *   CONCURRENCY_CONFLICT (after repeated races).
   */
  async refundPayment(orderId: string, input: RefundInput, request: PaymentCommandRequest): Promise<RefundResult> {
    const { store } = this.deps;
    const stream = streams.payment(orderId);
    const history = await store.readStream(stream);
    const state = foldStream(paymentDecider, history);
    // The participants whose paid flag a full refund of a fee takes back (fixed at the order).
    const covered = state.exists && state.kind === 'fee' ? (state.covers ?? [state.participantId!]) : [];
    const command = { type: 'RefundPayment' as const, data: { orderId, amountCents: input.amountCents, reason: input.reason } };
    let refund: { amountCents: number; refundedCents: number; full: boolean } | null = null;
    const result = await executeCommand(store, {
      streams: [stream, ...covered.map((participantId) => streams.participant(participantId))],
      known: new Map([[stream, history]]),
      context: await this.context(request, await this.editionOf(state.participantId), false),
      metadata: request.metadata,
      // The payment part decides first: its refusals (FORBIDDEN, NOT_FOUND, …) come before any other.
      decide: (read, ctx) => {
        const events = paymentDecider.decide(command, read.fold(stream, paymentDecider), ctx);
        const made = events.find((event) => event.type === 'PaymentRefunded');
        refund = made ? { amountCents: made.data.amountCents, refundedCents: made.data.refundedCents, full: made.data.full } : null;
        const full = refund?.full === true;
        return [{ stream, events }, ...covered.map((participantId) => {
          const of = streams.participant(participantId);
          const participant = read.fold(of, participantDecider);
          if (!full || !participant.exists || participant.deleted || !participant.isPaid || participant.paidOrderId !== orderId) return { stream: of, events: [] };
          return {
            stream: of,
            events: participantDecider.decide({ type: 'MarkPayment', data: { participantId, isPaid: false, source: 'refund', orderId } }, participant, ctx),
          };
        })];
      },
    });
    if (result.repeated) {
      const previous = result.prior!;
      const refunded = previous.type === 'PaymentRefunded' ? (previous.data as PaymentRefunded['data']) : null;
      const order = await this.paymentOrder(refunded?.orderId ?? orderId);
      return { order, refundedCents: refunded?.amountCents ?? 0, refundedTotalCents: refunded?.refundedCents ?? order.refundedCents, position: result.position };
    }
    const made = refund as { amountCents: number; refundedCents: number } | null;
    const order = await this.paymentOrder(orderId);
    return { order, refundedCents: made?.amountCents ?? 0, refundedTotalCents: made?.refundedCents ?? order.refundedCents, position: result.position };
  }

  /**
   * Sets a participant's paid flag (admin, importer). An administrator's mark says so
   * (ParticipantPaymentMarked.source 'admin') and, records the money verified by hand:
   * marking paid, the fee due (the company fee when the participant's team is a company team, else
   * by birth year) as `manualCents`, counted in the fundraising totals; unmarking, the manual
   * payment the standing mark had recorded, taken back. The importer's paid mark (the system
   * acting with `imported` metadata) says so (source 'import') and records the fee it assumes was
   * paid in the old system (`assumedCents`: the company fee in a company team, else by birth year).
   * @throws DomainError FORBIDDEN (not an administrator or the system), NOT_FOUND (unknown or
   *   deleted participant), INVALID_REQUEST.
   */
  async markPayment(participantId: number, isPaid: boolean, request: PaymentCommandRequest): Promise<{ position: number }> {
    const admin = request.actor.role === 'ADMIN';
    const imported = !admin && request.actor.role === 'SYSTEM' && request.metadata.imported === true;
    let company = false;
    const participant = foldStream(participantDecider, await this.deps.store.readStream(streams.participant(participantId)));
    if ((admin || imported) && isPaid) {
      company = participant.exists && participant.teamId !== null && (await this.isCompanyTeam(participant.teamId));
    }
    const result = await handleCommand(this.deps.store, streams.participant(participantId), participantDecider, {
      type: 'MarkPayment',
      data: {
        participantId, isPaid, ...(admin ? { source: 'admin' as const } : imported ? { source: 'import' as const } : {}),
        ...(company ? { company } : {}),
      },
    }, await this.context(request, participant.edition, true), request.metadata);
    return { position: result.position };
  }
}
