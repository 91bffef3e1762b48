/**
 * The payment reads (issue 7; spec §3 "Payment info", §7 GET /payment/info):
 *
 * | route | answer |
 * |---|---|
 * | GET /payment/info (authenticated) | PaymentInfoAnswer {isPaid, isChild, fee (EUR), feeCents} |
 * | GET /payment/order/{reference} (authenticated) | PaymentOrderStatusAnswer {reference, status, amount (EUR), kind}: the caller's own order, else 404 |
 * | GET /fundraising (public) | FundraisingAnswer: money raised in EUR, overall and per team |
 *
 * Amounts are decimal EUR in every answer (issue 14; spec §3/§9 "two decimals"), written from the
 * read model's integer cents by centsToEuros. All read the `payments` projection (x-min-position honoured like every read, D6). The paid flag
 * is the read model's, never the token's claim.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { ErrorAnswer, FundraisingAnswer, OrderReferenceParams, PaymentInfoAnswer, PaymentOrderStatusAnswer } from '@sinilill/contracts';
import { DomainError, centsToEuros, currentEdition, type Edition } from '@sinilill/domain';
import type { ReadModelDatabase } from '@sinilill/read-models';

export interface PaymentRouteOptions {
  db: Kysely<ReadModelDatabase>;
  /** Default: the current edition (the adult fee for a user without a participant). */
  edition?: Edition;
}

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRouteOptions> = async (app, { db, edition = currentEdition }) => {
  const rm = db.withSchema('rm');

  /**
   * The caller's payment info. A user without a participant (an administrator), or one the read
   * model does not know (deleted, or not projected yet), is not paid and owes the adult fee.
   */
  app.get('/payment/info', {
    onRequest: [app.authenticate],
    schema: { response: { 200: PaymentInfoAnswer, 401: ErrorAnswer } },
  }, async (request) => {
    const { participantId } = request.actor;
    const row = participantId === null ? undefined
      : await rm.selectFrom('payment_info').select(['is_paid', 'is_child', 'fee_cents']).where('participant_id', '=', participantId).executeTakeFirst();
    const feeCents = row ? row.fee_cents : edition.fees.adultCents;
    return { isPaid: row?.is_paid ?? false, isChild: row?.is_child ?? false, fee: centsToEuros(feeCents), feeCents };
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
      : await rm.selectFrom('payment_orders').select(['reference', 'status', 'amount_cents', 'kind'])
        .where('participant_id', '=', participantId).where('reference', '=', reference)
        .orderBy('order_id').limit(1).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', 'no such order of yours');
    return { reference: row.reference, status: row.status, amount: centsToEuros(row.amount_cents), kind: row.kind };
  });

  /** Money raised: totals (deleted teams' money included) and the live teams that raised any, most first. */
  app.get('/fundraising', { schema: { response: { 200: FundraisingAnswer } } }, async () => {
    const [totals, teams] = await Promise.all([
      rm.selectFrom('fundraising_totals').selectAll().where('id', '=', 1).executeTakeFirst(),
      rm.selectFrom('fundraising_teams').selectAll()
        .where('deleted', '=', false)
        .where((eb) => eb(eb('fees_cents', '+', eb.ref('donations_cents')), '>', 0))
        .orderBy((eb) => eb('fees_cents', '+', eb.ref('donations_cents')), 'desc').orderBy('team_id')
        .execute(),
    ]);
    const feesCents = Number(totals?.fees_cents ?? 0);
    const donationsCents = Number(totals?.donations_cents ?? 0);
    return {
      fees: centsToEuros(feesCents),
      donations: centsToEuros(donationsCents),
      total: centsToEuros(feesCents + donationsCents),
      teams: teams.map((t) => ({
        teamId: t.team_id,
        fees: centsToEuros(Number(t.fees_cents)),
        donations: centsToEuros(Number(t.donations_cents)),
        total: centsToEuros(Number(t.fees_cents) + Number(t.donations_cents)),
      })),
    };
  });
};
