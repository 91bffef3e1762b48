/**
 * The read-model look-ups the commands still need (CommandServiceDependencies membersOfTeam,
 * ordersOfReference): the members a team fee may cover (handlers/payment.ts) and the payment
 * orders of a reference; the event store has no index of payment streams by reference, and
 * reading the whole log per command would be far too slow. The CommandService checks every id
 * against its own stream before acting on it (covering a member with a team fee, refunding), so a
 * lagging read model can only leave out what was appended after its checkpoint.
 *
 * Deletions do NOT use the read models (issue 15 item 4): they find a team's members and entries
 * and a participant's entries in the event store's own stream index (CommandServiceDependencies
 * streamIndex; packages/commands/src/stream-index.ts).
 */
import type pg from 'pg';

/** Look-ups of schema `rm` (team-directory projection) by plain SQL. */
export interface ReadModelLookups {
  /** Participant ids of the team's members (rm.team_members), ascending. */
  membersOfTeam(teamId: number): Promise<number[]>;
  /** Ids of the payment orders with the reference (rm.payment_orders; 8 upper-case hex digits). Issue 14. */
  ordersOfReference(reference: string): Promise<string[]>;
}

/** The look-ups on `pool` (the read models' database; schema `rm`). */
export function readModelLookups(pool: pg.Pool): ReadModelLookups {
  return {
    async membersOfTeam(teamId) {
      const { rows } = await pool.query<{ participant_id: number }>(
        'SELECT participant_id FROM rm.team_members WHERE team_id = $1 ORDER BY participant_id', [teamId]);
      return rows.map((row) => Number(row.participant_id));
    },
    async ordersOfReference(reference) {
      const { rows } = await pool.query<{ order_id: string }>(
        'SELECT order_id FROM rm.payment_orders WHERE reference = $1 ORDER BY order_id', [reference]);
      return rows.map((row) => row.order_id);
    },
  };
}
