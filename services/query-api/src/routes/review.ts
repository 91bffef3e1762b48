/**
 * The admin console's review queue: GET /admin/review?status&rule&team_id&date&page
 * → { rows, total, page, pageSize } (contracts moderation.ts), administrators only (401
 * UNAUTHORIZED, 403 FORBIDDEN). Rows are the live entries ever flagged (team-directory's
 * team_entries review columns, migration 2026-010), newest flag first, 50 a page, with the
 * member's and team's names. Filters: status (default: flagged, i.e. awaiting a decision), rule
 * (a reason of the latest flag), team, and performed-at date (YYYY-MM-DD, Europe/Tallinn).
 * The partial index team_entries_review serves the status filter and the order.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import { ErrorAnswer, ReviewQueueAnswer, ReviewQueueQuery, type FlagReason, type ReviewRow } from '@sinilill/contracts';
import { fromHundredths } from '@sinilill/domain';
import { requireAdmin } from '@sinilill/http';
import type { ReadModelDatabase } from '@sinilill/read-models';

/** Rows of one page of the queue. */
export const REVIEW_PAGE_SIZE = 50;

export interface ReviewRouteOptions {
  db: Kysely<ReadModelDatabase>;
}

const refusals = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer };

export const reviewRoutes: FastifyPluginAsyncTypebox<ReviewRouteOptions> = async (app, { db }) => {
  const rm = db.withSchema('rm');

  app.get('/admin/review', {
    onRequest: [app.authenticate, requireAdmin],
    config: { reads: ['team-directory', 'team-stats'] },
    schema: { querystring: ReviewQueueQuery, response: { 200: ReviewQueueAnswer, ...refusals } },
  }, async (request) => {
    const q = request.query;
    const page = Number(q.page ?? '1');
    let query = rm.selectFrom('team_entries as e')
      .leftJoin('team_members as m', 'm.participant_id', 'e.participant_id')
      .leftJoin('team_stats as t', 't.team_id', 'e.team_id')
      .where('e.review_status', '=', q.status ?? 'flagged');
    if (q.team_id !== undefined) query = query.where('e.team_id', '=', Number(q.team_id));
    if (q.date !== undefined) query = query.where('e.performed_at', '=', q.date);
    // The reasons are JSON text: a rule matches when one of them names it.
    if (q.rule !== undefined) query = query.where(sql<boolean>`e.review_reasons::jsonb @> ${JSON.stringify([{ rule: q.rule }])}::jsonb`);
    const [rows, count] = await Promise.all([
      query.select(['e.entry_id', 'e.team_id', 'e.participant_id', 'e.distance_hundredths', 'e.entry_type', 'e.performed_at',
        'e.review_status', 'e.review_reasons', 'e.flagged_at', 'e.decided_by', 'e.decided_at', 'e.review_note', 'm.full_name', 't.team_name'])
        .orderBy('e.flagged_at', 'desc').orderBy('e.entry_id', 'desc')
        .limit(REVIEW_PAGE_SIZE).offset((page - 1) * REVIEW_PAGE_SIZE)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      rows: rows.map((r): ReviewRow => ({
        entry_id: r.entry_id,
        team_id: r.team_id,
        team_name: r.team_name ?? null,
        participant_id: r.participant_id,
        full_name: r.full_name ?? null,
        distance: fromHundredths(r.distance_hundredths),
        entry_type: r.entry_type,
        performed_at: r.performed_at,
        status: r.review_status as ReviewRow['status'],
        reasons: JSON.parse(r.review_reasons ?? '[]') as FlagReason[],
        flagged_at: r.flagged_at!.toISOString(),
        decided_by: r.decided_by,
        decided_at: r.decided_at?.toISOString() ?? null,
        note: r.review_note,
      })),
      total: Number(count.n),
      page,
      pageSize: REVIEW_PAGE_SIZE,
    };
  });
};
