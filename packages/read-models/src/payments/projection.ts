/**
 * Projection `payments`: rm.payment_info (GET /api/payment/info), rm.fundraising_teams
 * and the rm.fundraising_totals row (GET /api/fundraising), rm.payment_orders (GET
 * /api/payment/order/{reference}; refunds and team fees' members since 2026-008) and
 * rm.company_teams, folded by ./evolve.ts. Each participant's fee follows their edition's rules (its fee rules,
 * docs/decisions/0009). The team page shows the money its team raised, so a batch names the teams
 * whose money moved (moneyTeams) and no others: an order, a paid mark or a registration wakes no
 * team page.
 */
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '@sinilill/event-store';
import { chunk, type Projection } from '../projection';
import { changedTeams } from '../changes';
import { fold } from '../parking';
import { EDITION_DATA_EVENTS, ProjectionEditions } from '../projection-editions';
import type { ReadModelDatabase } from '../schema';
import { PAYMENTS_EVENTS, emptyPaymentsWorkingSet, evolvePayments, type PaymentsWorkingSet } from './evolve';

const anyInt = (ids: Iterable<number>) => sql<number>`any(${[...ids]}::int[])`;

async function load(db: Kysely<ReadModelDatabase>, events: readonly RecordedEvent[]): Promise<PaymentsWorkingSet> {
  const totals = await db.selectFrom('fundraising_totals').selectAll().where('id', '=', 1).executeTakeFirst();
  const set = emptyPaymentsWorkingSet({
    feesCents: Number(totals?.fees_cents ?? 0), donationsCents: Number(totals?.donations_cents ?? 0), unknownCount: totals?.unknown_count ?? 0,
  });
  const participantIds = new Set<number>();
  const teamIds = new Set<number>();
  const orderIds = new Set<string>();
  // The company flag of the teams new participants join.
  const joinedTeams = new Set<number>();
  for (const event of events) {
    const data = event.data as { participantId?: unknown; teamId?: unknown; orderId?: unknown };
    if (typeof data.orderId === 'string' && event.type !== 'PaymentOrdered') orderIds.add(data.orderId);
    if (typeof data.participantId === 'number') participantIds.add(data.participantId);
    if (typeof data.teamId !== 'number') continue;
    if (event.type === 'ParticipantRegistered') joinedTeams.add(data.teamId);
    // A participant's team too: an administrator's manual payment in this batch may count for it.
    teamIds.add(data.teamId);
  }
  if (participantIds.size > 0) {
    const rows = await db.selectFrom('payment_info').selectAll().where('participant_id', '=', anyInt(participantIds)).execute();
    for (const row of rows) {
      set.info.set(row.participant_id, {
        participantId: row.participant_id, teamId: row.team_id, edition: row.edition, isPaid: row.is_paid, isChild: row.is_child, feeCents: row.fee_cents,
        ...(row.company ? { company: true } : {}),
        ...(row.is_captain ? { isCaptain: true } : {}),
      });
    }
  }
  // An administrator's manual payment counts for the participant's team: load its row
  // (a team registered in this batch is among teamIds already).
  for (const event of events) {
    const data = event.data as { participantId?: unknown; manualCents?: unknown; source?: unknown };
    // An imported mark counts too: its assumed fee, or its unknown amount.
    const money = typeof data.manualCents === 'number' || data.source === 'import';
    if (event.type !== 'ParticipantPaymentMarked' || !money || typeof data.participantId !== 'number') continue;
    const row = set.info.get(data.participantId);
    if (row) teamIds.add(row.teamId);
  }
  if (joinedTeams.size > 0) {
    const rows = await db.selectFrom('company_teams').select('team_id').where('team_id', '=', anyInt(joinedTeams)).execute();
    for (const row of rows) set.companyTeams.set(row.team_id, true);
  }
  if (teamIds.size > 0) {
    const rows = await db.selectFrom('fundraising_teams').selectAll().where('team_id', '=', anyInt(teamIds)).execute();
    for (const row of rows) {
      set.teams.set(row.team_id, {
        teamId: row.team_id, edition: row.edition, feesCents: row.fees_cents, donationsCents: row.donations_cents, deleted: row.deleted, unknownCount: row.unknown_count,
      });
    }
  }
  if (orderIds.size > 0) {
    const rows = await db.selectFrom('payment_orders').selectAll().where('order_id', '=', sql<string>`any(${[...orderIds]}::text[])`).execute();
    for (const row of rows) {
      set.orders.set(row.order_id, {
        orderId: row.order_id, reference: row.reference, participantId: row.participant_id, kind: row.kind, amountCents: row.amount_cents, status: row.status,
        ...(row.refunded_cents > 0 ? { refundedCents: row.refunded_cents } : {}),
        ...(row.covers ? { covers: row.covers.map(Number) } : {}),
      });
    }
  }
  return set;
}

async function save(db: Kysely<ReadModelDatabase>, set: PaymentsWorkingSet): Promise<void> {
  const info = [];
  const removed: number[] = [];
  for (const id of set.changedInfo) {
    const row = set.info.get(id);
    if (!row) removed.push(id);
    else {
      info.push({
        participant_id: row.participantId, team_id: row.teamId, edition: row.edition, is_paid: row.isPaid, is_child: row.isChild, fee_cents: row.feeCents,
        company: row.company === true, is_captain: row.isCaptain === true,
      });
    }
  }
  for (const part of chunk(info, 8)) {
    await db.insertInto('payment_info').values(part)
      .onConflict((oc) => oc.column('participant_id').doUpdateSet((eb) => ({
        team_id: eb.ref('excluded.team_id'), edition: eb.ref('excluded.edition'), is_paid: eb.ref('excluded.is_paid'),
        is_child: eb.ref('excluded.is_child'), fee_cents: eb.ref('excluded.fee_cents'),
        company: eb.ref('excluded.company'), is_captain: eb.ref('excluded.is_captain'),
      }))).execute();
  }
  if (set.newCompanyTeams.size > 0) {
    await db.insertInto('company_teams').values([...set.newCompanyTeams].map((teamId) => ({ team_id: teamId })))
      .onConflict((oc) => oc.column('team_id').doNothing()).execute();
  }
  if (removed.length > 0) await db.deleteFrom('payment_info').where('participant_id', '=', anyInt(removed)).execute();
  const teams = [...set.changedTeams].map((id) => {
    const row = set.teams.get(id)!;
    return { team_id: row.teamId, edition: row.edition, fees_cents: row.feesCents, donations_cents: row.donationsCents, deleted: row.deleted, unknown_count: row.unknownCount };
  });
  for (const part of chunk(teams, 6)) {
    await db.insertInto('fundraising_teams').values(part)
      .onConflict((oc) => oc.column('team_id').doUpdateSet((eb) => ({
        edition: eb.ref('excluded.edition'), fees_cents: eb.ref('excluded.fees_cents'), donations_cents: eb.ref('excluded.donations_cents'), deleted: eb.ref('excluded.deleted'),
        unknown_count: eb.ref('excluded.unknown_count'),
      }))).execute();
  }
  const orders = [...set.changedOrders].map((id) => {
    const row = set.orders.get(id)!;
    return {
      order_id: row.orderId, reference: row.reference, participant_id: row.participantId, kind: row.kind, amount_cents: row.amountCents, status: row.status,
      refunded_cents: row.refundedCents ?? 0, covers: row.covers ?? null,
    };
  });
  for (const part of chunk(orders, 8)) {
    await db.insertInto('payment_orders').values(part)
      .onConflict((oc) => oc.column('order_id').doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'), refunded_cents: eb.ref('excluded.refunded_cents'),
      }))).execute();
  }
  if (set.totalsChanged) {
    await db.updateTable('fundraising_totals').where('id', '=', 1)
      .set({ fees_cents: set.totals.feesCents, donations_cents: set.totals.donationsCents, unknown_count: set.totals.unknownCount }).execute();
  }
}

/** The events that change a team's money raised (fundraising_teams): each carries its teamId. */
const MONEY_EVENTS: ReadonlySet<string> = new Set(['PaymentSucceeded', 'DonationReceived', 'PaymentRefunded']);

/**
 * The teams whose money raised a batch's applied events changed, ascending (changedTeams over the
 * money events only: null, any team, beyond MAX_NOTIFIED_TEAMS); [] when none did.
 */
export function moneyTeams(applied: readonly Pick<RecordedEvent, 'type' | 'data'>[]): number[] | null {
  return changedTeams(applied.filter((event) => MONEY_EVENTS.has(event.type)));
}

/**
 * The payments projection: each participant's fee follows their edition's fee rules, kept by
 * this projection from the edition events (projection-editions.ts, decision 0079).
 */
export function createPaymentsProjection(): Projection {
  return {
    name: 'payments',
    handles: [...PAYMENTS_EVENTS, ...EDITION_DATA_EVENTS],
    teamsOf: moneyTeams,
    async apply(db, events) {
      const editions = await ProjectionEditions.load(db, 'payments');
      const set = await load(db, events);
      fold(() => {
        for (const event of events) if (editions.fold(event) === null) evolvePayments(set, event, editions.get);
      });
      await editions.save(db);
      await save(db, set);
    },
  };
}

/** The payments projection the projector runs. */
export const paymentsProjection: Projection = createPaymentsProjection();
