/**
 * The read-model look-ups the commands still need (CommandServiceDependencies membersOfTeam,
 * ordersOfReference): the members a team fee may cover (payment/handlers.ts) and the payment
 * orders of a reference; the event store has no index of payment streams by reference, and
 * reading the whole log per command would be far too slow. The CommandService checks every id
 * against its own stream before acting on it (covering a member with a team fee, refunding), so a
 * lagging read model can only leave out what was appended after its checkpoint.
 *
 * Deletions do NOT use the read models: they find a team's members and entries
 * and a participant's entries in the event store's own stream index (CommandServiceDependencies
 * streamIndex; packages/commands/src/stream-index.ts).
 */
import type pg from 'pg';
import type { TeamDay } from '@sinilill/domain';
import type { TeamFigures } from '@sinilill/commands';

/** Look-ups of schema `rm` (team-directory projection) by plain SQL. */
export interface ReadModelLookups {
  /** Participant ids of the team's members (rm.team_members), ascending. */
  membersOfTeam(teamId: number): Promise<number[]>;
  /** Ids of the payment orders with the reference (rm.payment_orders; 8 upper-case hex digits). */
  ordersOfReference(reference: string): Promise<string[]>;
  /**
   * The participant's team's day for the TEAM_DAY_OUTLIER moderation rule (see
   * CommandServiceDependencies.teamDayOf): null when the participant is in no team.
   */
  teamDayOf(participantId: number, day: string, entryId: number): Promise<TeamDay | null>;
}

/**
 * Every team's figures of `day` (YYYY-MM-DD) for TeamDayFigures (@sinilill/commands), the warm
 * form of teamDayOf: one statement per day and refresh, not one per entry. The teams with km that
 * day and the teams of the day's year (its edition), each with its km that day in hundredths
 * (rm.team_daily_distance: rejected entries left out, as every total) and its members
 * (rm.team_stats.participants).
 */
export function teamDayFiguresOn(pool: pg.Pool): (day: string) => Promise<ReadonlyMap<number, TeamFigures>> {
  return async (day) => {
    const { rows } = await pool.query<{ team_id: number; members: number; hundredths: string | number }>({
      name: 'rm.teamDayFigures',
      text: `SELECT s.team_id, s.participants AS members, coalesce(d.distance_hundredths, 0) AS hundredths
               FROM rm.team_stats s LEFT JOIN rm.team_daily_distance d ON d.team_id = s.team_id AND d.day = $1::date
              WHERE d.team_id IS NOT NULL OR s.edition = extract(year FROM $1::date)`,
      values: [day],
    });
    return new Map(rows.map((row) => [Number(row.team_id), { members: Number(row.members ?? 0), hundredths: Number(row.hundredths) }]));
  };
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
    async teamDayOf(participantId, day, entryId) {
      const { rows } = await pool.query<{ team_id: number | null; own: string | null; members: number | null; others: number[] | null }>(`
        WITH t AS (SELECT team_id FROM rm.team_members WHERE participant_id = $1)
        SELECT (SELECT team_id FROM t) AS team_id,
          (SELECT sum(distance_hundredths) FROM rm.team_entries
            WHERE team_id = (SELECT team_id FROM t) AND performed_at = $2::date AND entry_id <> $3
              AND review_status IS DISTINCT FROM 'rejected') AS own,
          (SELECT participants FROM rm.team_stats WHERE team_id = (SELECT team_id FROM t)) AS members,
          ARRAY(SELECT d.distance_hundredths::float8 / 100 / s.participants FROM rm.team_daily_distance d
            JOIN rm.team_stats s ON s.team_id = d.team_id
            WHERE d.day = $2::date AND d.team_id <> (SELECT team_id FROM t) AND s.participants > 0 AND d.distance_hundredths > 0) AS others`,
        [participantId, day, entryId]);
      const row = rows[0];
      if (!row || row.team_id === null) return null;
      return { otherHundredths: Number(row.own ?? 0), members: Math.max(1, row.members ?? 1), othersPerMember: (row.others ?? []).map(Number) };
    },
  };
}
