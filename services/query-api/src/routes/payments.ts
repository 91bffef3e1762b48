/**
 * The payment reads (issue 7; spec §3 "Payment info", §7 GET /payment/info):
 *
 * | route | answer |
 * |---|---|
 * | GET /payment/info (authenticated) | PaymentInfoAnswer {isPaid, isChild, feeCents} |
 * | GET /fundraising (public) | FundraisingAnswer: money raised in EUR cents, overall and per team |
 *
 * Both read the `payments` projection (x-min-position honoured like every read, D6). The paid flag
 * is the read model's, never the token's claim.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { ErrorAnswer, FundraisingAnswer, PaymentInfoAnswer } from '@sinilill/contracts';
import { currentEdition, type Edition } from '@sinilill/domain';
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
    return row
      ? { isPaid: row.is_paid, isChild: row.is_child, feeCents: row.fee_cents }
      : { isPaid: false, isChild: false, feeCents: edition.fees.adultCents };
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
    const feesCents = totals?.fees_cents ?? 0;
    const donationsCents = totals?.donations_cents ?? 0;
    return {
      feesCents,
      donationsCents,
      totalCents: feesCents + donationsCents,
      teams: teams.map((t) => ({
        teamId: t.team_id, feesCents: t.fees_cents, donationsCents: t.donations_cents, totalCents: t.fees_cents + t.donations_cents,
      })),
    };
  });
};
