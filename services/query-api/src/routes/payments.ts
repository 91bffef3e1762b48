/**
 * The payment reads (spec §3 "Payment info", §7 GET /payment/info):
 *
 * | route | answer |
 * |---|---|
 * | GET /payment/info (authenticated) | PaymentInfoAnswer {isPaid, isChild, fee (EUR), feeCents, company; a company captain's unpaidMembers, teamFee (EUR)} |
 * | GET /payment/order/{reference} (authenticated) | PaymentOrderStatusAnswer {reference, status, amount (EUR), kind, refunded?}: the caller's own order, else 404 |
 * | GET /payment/banktransfer (authenticated) | BankTransferAnswer {accountName, iban, description, amount (EUR), example} |
 * | GET /fundraising (public) | FundraisingAnswer: money raised in EUR, overall and per team (unknownCount: fees of unknown amount) |
 * | GET /admin/participant/{id}/payments (administrators) | AdminParticipantPaymentsAnswer: the orders the console may refund |
 *
 * Amounts are decimal EUR in every answer (spec §3/§9 "two decimals"), written from the
 * read model's integer cents by centsToEuros. All read the `payments` projection (x-min-position honoured like every read, docs/decisions/0006). The paid flag
 * is the read model's, never the token's claim.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import { DEVELOPMENT_BANK_TRANSFER, type BankTransferConfig } from '@sinilill/config';
import {
  AdminParticipantPaymentsAnswer,
  AdminParticipantPaymentsParams,
  BankTransferAnswer,
  ErrorAnswer,
  FundraisingAnswer,
  OrderReferenceParams,
  PaymentInfoAnswer,
  PaymentOrderStatusAnswer,
} from '@sinilill/contracts';
import { DomainError, centsToEuros, teamFeeCents, type Edition } from '@sinilill/domain';
import { requireAdmin, routeFile } from '@sinilill/http';
import type { ReadModelDatabase } from '@sinilill/read-models';
import type { RouteDependencies } from '../dependencies';
import type { ReadModelEditions } from '../editions';

export interface PaymentRouteOptions {
  db: Kysely<ReadModelDatabase>;
  /**
   * The editions: a participant's fees are those of their own edition (payment_info.edition); a
   * user without a participant owes the adult fee of the edition the site answers for.
   */
  editions: ReadModelEditions;
  now: () => Date;
  /** The manual bank transfer's details; default DEVELOPMENT_BANK_TRANSFER. */
  bankTransfer?: BankTransferConfig;
}

/**
 * A bank transfer description template filled in for one payer: {participantId},
 * {teamId} and {year} replaced (by '' when the caller has none), spaces collapsed.
 */
export function bankTransferDescription(template: string, values: { participantId: number | null; teamId: number | null; year: number }): string {
  const filled = template
    .replaceAll('{participantId}', values.participantId === null ? '' : String(values.participantId))
    .replaceAll('{teamId}', values.teamId === null ? '' : String(values.teamId))
    .replaceAll('{year}', String(values.year));
  return filled.replace(/\s+/g, ' ').trim();
}

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRouteOptions> = async (app, options) => {
  const { db, editions, now, bankTransfer = DEVELOPMENT_BANK_TRANSFER } = options;
  const rm = db.withSchema('rm');

  /** The caller's row of rm.payment_info; undefined without a participant or before it is projected. */
  const infoOf = async (participantId: number | null) => participantId === null ? undefined
    : rm.selectFrom('payment_info').select(['team_id', 'edition', 'is_paid', 'is_child', 'fee_cents', 'company', 'is_captain'])
      .where('participant_id', '=', participantId).executeTakeFirst();

  /** The edition of a payment-info row (its participant's), else the one the site answers for. */
  const editionOf = async (row: { edition: number } | undefined): Promise<Edition> => {
    const catalog = await editions.catalog();
    const record = (row ? catalog.get(row.edition) : undefined) ?? (await editions.answering(now()));
    if (!record) throw new DomainError('NOT_FOUND', 'no edition');
    return record.edition;
  };

  /**
   * The caller's payment info. A user without a participant (an administrator), or one the read
   * model does not know (deleted, or not projected yet), is not paid and owes the adult fee. The
   * captain of a company team also learns how many members are unpaid and what paying for them
   * all costs (15 EUR each, spec §9).
   */
  app.get('/payment/info', {
    onRequest: [app.authenticate],
    schema: { response: { 200: PaymentInfoAnswer, 401: ErrorAnswer } },
  }, async (request) => {
    const row = await infoOf(request.actor.participantId);
    const edition = await editionOf(row);
    const feeCents = row ? row.fee_cents : edition.fees.adultCents;
    const answer: PaymentInfoAnswer = { isPaid: row?.is_paid ?? false, isChild: row?.is_child ?? false, fee: centsToEuros(feeCents), feeCents, company: row?.company ?? false };
    if (row?.company && row.is_captain) {
      const unpaid = await rm.selectFrom('payment_info').select((eb) => eb.fn.countAll<string>().as('count'))
        .where('team_id', '=', row.team_id).where('is_paid', '=', false).executeTakeFirstOrThrow();
      const unpaidMembers = Number(unpaid.count);
      answer.unpaidMembers = unpaidMembers;
      answer.teamFee = centsToEuros(teamFeeCents(unpaidMembers, edition));
    }
    return answer;
  });

  /**
   * Where to transfer the fee by hand (spec §2 "Payment"): the configured account
   * and the description personalised with the caller's participant and team ids, the caller's fee
   * in EUR, and whether the details are the made-up development ones.
   */
  app.get('/payment/banktransfer', {
    onRequest: [app.authenticate],
    schema: { response: { 200: BankTransferAnswer, 401: ErrorAnswer } },
  }, async (request) => {
    const { participantId, teamId } = request.actor;
    const row = await infoOf(participantId);
    const edition = await editionOf(row);
    return {
      accountName: bankTransfer.accountName,
      iban: bankTransfer.iban,
      description: bankTransferDescription(bankTransfer.descriptionTemplate, { participantId, teamId: row?.team_id ?? teamId, year: edition.year }),
      amount: centsToEuros(row ? row.fee_cents : edition.fees.adultCents),
      example: bankTransfer.example,
    };
  });

  /**
   * The orders of a participant for the admin console's refund action: those they paid
   * and the team fees that covered them, paid ones first, then by reference. Administrators only
   * (401, 403 FORBIDDEN); an unknown participant has none.
   */
  app.get('/admin/participant/:id/payments', {
    onRequest: [app.authenticate, requireAdmin],
    schema: { params: AdminParticipantPaymentsParams, response: { 200: AdminParticipantPaymentsAnswer, 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer } },
  }, async (request) => {
    const id = Number(request.params.id);
    const rows = await rm.selectFrom('payment_orders').selectAll()
      .where(sql<boolean>`participant_id = ${id} or ${id} = any(covers)`)
      .orderBy(sql`status = 'paid'`, 'desc').orderBy('reference').orderBy('order_id')
      .execute();
    return {
      orders: rows.map((row) => ({
        orderId: row.order_id,
        reference: row.reference,
        participantId: row.participant_id,
        kind: row.kind,
        status: row.status,
        amount: centsToEuros(row.amount_cents),
        refunded: centsToEuros(row.refunded_cents),
        covers: (row.covers ?? []).map(Number),
      })),
    };
  });

  /**
   * The caller's own order by its reference (the result page's `code`). Another person's order
   * and an unknown reference answer the same 404 NOT_FOUND, so the answer never says whether a
   * reference exists; a user without a participant (an administrator) has no orders.
   * @throws DomainError NOT_FOUND.
   */
  app.get('/payment/order/:reference', {
    onRequest: [app.authenticate],
    schema: { params: OrderReferenceParams, response: { 200: PaymentOrderStatusAnswer, 400: ErrorAnswer, 401: ErrorAnswer, 404: ErrorAnswer } },
  }, async (request) => {
    const { participantId } = request.actor;
    const reference = request.params.reference.toUpperCase();
    // A reference is 32 bits of the order id; should one person ever hold two orders with the same
    // reference (odds about n²/2³³), both are theirs and the first by order id answers.
    const row = participantId === null ? undefined
      : await rm.selectFrom('payment_orders').select(['reference', 'status', 'amount_cents', 'kind', 'refunded_cents'])
        .where('participant_id', '=', participantId).where('reference', '=', reference)
        .orderBy('order_id').limit(1).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', 'no such order of yours');
    return {
      reference: row.reference, status: row.status, amount: centsToEuros(row.amount_cents), kind: row.kind,
      ...(row.refunded_cents > 0 ? { refunded: centsToEuros(row.refunded_cents) } : {}),
    };
  });

  /**
   * Money raised in the edition the site answers for (editions.ts): totals (deleted teams' money
   * included) and the live teams that raised any, most first.
   */
  app.get('/fundraising', { schema: { response: { 200: FundraisingAnswer } } }, async () => {
    const year = await editions.answeringYear(now());
    const [totals, teams] = await Promise.all([
      rm.selectFrom('fundraising_teams').where('edition', '=', year).select((eb) => [
        eb.fn.coalesce(eb.fn.sum<string>('fees_cents'), eb.lit(0)).as('fees_cents'),
        eb.fn.coalesce(eb.fn.sum<string>('donations_cents'), eb.lit(0)).as('donations_cents'),
        eb.fn.coalesce(eb.fn.sum<string>('unknown_count'), eb.lit(0)).as('unknown_count'),
      ]).executeTakeFirst(),
      rm.selectFrom('fundraising_teams').selectAll()
        .where('edition', '=', year)
        .where('deleted', '=', false)
        .where((eb) => eb.or([eb(eb('fees_cents', '+', eb.ref('donations_cents')), '>', 0), eb('unknown_count', '>', 0)]))
        .orderBy((eb) => eb('fees_cents', '+', eb.ref('donations_cents')), 'desc').orderBy('team_id')
        .execute(),
    ]);
    const feesCents = Number(totals?.fees_cents ?? 0);
    const donationsCents = Number(totals?.donations_cents ?? 0);
    return {
      fees: centsToEuros(feesCents),
      donations: centsToEuros(donationsCents),
      total: centsToEuros(feesCents + donationsCents),
      unknownCount: Number(totals?.unknown_count ?? 0),
      teams: teams.map((t) => ({
        teamId: t.team_id,
        fees: centsToEuros(Number(t.fees_cents)),
        donations: centsToEuros(Number(t.donations_cents)),
        total: centsToEuros(Number(t.fees_cents) + Number(t.donations_cents)),
        unknownCount: t.unknown_count,
      })),
    };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(paymentRoutes, (deps: RouteDependencies) => ({ db: deps.db, editions: deps.editions, now: deps.now, ...(deps.bankTransfer ? { bankTransfer: deps.bankTransfer } : {}) }));
