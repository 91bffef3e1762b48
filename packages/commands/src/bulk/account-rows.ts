/**
 * The account-table rows of a bulk import, written a batch at a time: team names
 * (app.team_name_index) and join codes (app.join_codes), each unique within its team's edition,
 * and e-mail reservations (app.email_index),
 * each kind as ONE multi-row INSERT … SELECT FROM unnest … ON CONFLICT DO NOTHING followed by ONE
 * owner look-up, instead of one or two queries per row.
 *
 * Same semantics as AccountTransaction.reserveTeamName / reserveJoinCode / reserveEmail
 * (account/directory.ts): a key already held by the same team or account counts as free (a
 * re-run trips over none of its own rows); a key held by another owner, or a conflict on the
 * owner's own unique column (the team or account already holds another key), refuses the row.
 * Inside one batch rows are inserted in batch order, so of two rows wanting one key the earlier
 * wins and the later is refused, as if they had been registered one after the other.
 *
 * Runs on the caller's transaction client: the caller commits after the events are appended and
 * rolls back on any failure, so a failed append releases the batch's reservations (as
 * AccountDirectory.transaction does for one command).
 */
import type pg from 'pg';
import { DomainError, joinCodeComparisonForm, teamNameComparisonForm } from '@sinilill/domain';
import type { AccountDirectory } from '../account/directory';

/** A team's name and join code to reserve (registerTeam with a directory). */
export interface TeamRowReservation {
  /** Position of the command in its batch: the earliest refused position is reported. */
  order: number;
  teamId: number;
  /** As registered; reserved in teamNameComparisonForm. */
  teamName: string;
  /** As registered; stored upper-case (joinCodeComparisonForm). */
  joinCode: string;
  /** The join code's created_at (the command's instant). */
  createdAt: Date;
  /** The team's edition (a year): names and codes are unique within it. */
  edition: number;
}

/** An account's e-mail to reserve (the account of registerParticipant with a directory). */
export interface EmailRowReservation {
  order: number;
  email: string;
  /** The account (user id, a UUID string). */
  userId: string;
}

/** The first refused row of a batch: its order and the error its command would have thrown. */
export interface RefusedReservation {
  order: number;
  error: DomainError;
}

/**
 * Reserves every row on `client` (an open transaction) and reports the earliest refused one.
 * The rows are written whether or not one is refused: on a refusal the caller rolls back and
 * writes the batch again without the refused row and what follows it.
 * @returns null when every row is the owner's; else the refused row with the error
 *   (TEAM_NAME_ALREADY_IN_USE before INVALID_JOIN_CODE for one team, EMAIL_ALREADY_IN_USE).
 * @throws pg errors.
 */
export async function reserveAccountRows(
  client: pg.PoolClient,
  directory: AccountDirectory,
  rows: { teams: readonly TeamRowReservation[]; emails: readonly EmailRowReservation[] },
): Promise<RefusedReservation | null> {
  const refusals: RefusedReservation[] = [];
  if (rows.teams.length > 0) {
    // Keys are unique within an edition: each is looked up as `<edition>:<key>`.
    const editions = rows.teams.map((row) => row.edition);
    const names = rows.teams.map((row) => teamNameComparisonForm(row.teamName));
    const teamIds = rows.teams.map((row) => row.teamId);
    await client.query(
      `INSERT INTO app.team_name_index (edition, name_key, team_id)
       SELECT e, k, t FROM unnest($1::int[], $2::text[], $3::int[]) WITH ORDINALITY AS u(e, k, t, o) ORDER BY o
       ON CONFLICT DO NOTHING`,
      [editions, names, teamIds],
    );
    const nameOwners = await owners<string, number>(client,
      `SELECT edition || ':' || name_key AS key, team_id AS owner FROM app.team_name_index
        WHERE (edition, name_key) IN (SELECT * FROM unnest($1::int[], $2::text[]))`, [editions, names], (key) => key);
    const codes = rows.teams.map((row) => joinCodeComparisonForm(row.joinCode));
    await client.query(
      `INSERT INTO app.join_codes (edition, code, team_id, created_at, expires_at)
       SELECT e, c, t, at, NULL FROM unnest($1::int[], $2::text[], $3::int[], $4::timestamptz[]) WITH ORDINALITY AS u(e, c, t, at, o) ORDER BY o
       ON CONFLICT (edition, code) DO NOTHING`,
      [editions, codes, teamIds, rows.teams.map((row) => row.createdAt)],
    );
    const codeOwners = await owners<string, number>(client,
      `SELECT edition || ':' || code AS key, team_id AS owner FROM app.join_codes
        WHERE (edition, code) IN (SELECT * FROM unnest($1::int[], $2::text[]))`, [editions, codes], (key) => key);
    rows.teams.forEach((row, index) => {
      if (nameOwners.get(`${row.edition}:${names[index]!}`) !== row.teamId) {
        refusals.push({ order: row.order, error: new DomainError('TEAM_NAME_ALREADY_IN_USE') });
      } else if (codeOwners.get(`${row.edition}:${codes[index]!}`) !== row.teamId) {
        refusals.push({ order: row.order, error: new DomainError('INVALID_JOIN_CODE', `join code ${row.joinCode} belongs to another team`) });
      }
    });
  }
  if (rows.emails.length > 0) {
    const keys = rows.emails.map((row) => directory.emailKey(row.email));
    await client.query(
      `INSERT INTO app.email_index (email_key, user_id)
       SELECT k, u FROM unnest($1::bytea[], $2::text[]) WITH ORDINALITY AS x(k, u, o) ORDER BY o
       ON CONFLICT DO NOTHING`,
      [keys, rows.emails.map((row) => row.userId)],
    );
    const emailOwners = await owners<Buffer, string>(client,
      'SELECT email_key AS key, user_id AS owner FROM app.email_index WHERE email_key = ANY($1::bytea[])', [keys], (key) => key.toString('hex'));
    rows.emails.forEach((row, index) => {
      if (emailOwners.get(keys[index]!.toString('hex')) !== row.userId) {
        refusals.push({ order: row.order, error: new DomainError('EMAIL_ALREADY_IN_USE') });
      }
    });
  }
  if (refusals.length === 0) return null;
  return refusals.reduce((first, refusal) => (refusal.order < first.order ? refusal : first));
}

/** The current owner of each key (one query with `params`), by `id(key)`. */
async function owners<Key, Owner>(
  client: pg.PoolClient,
  select: string,
  params: readonly unknown[],
  id: (key: Key) => string,
): Promise<Map<string, Owner>> {
  const { rows } = await client.query<{ key: Key; owner: Owner }>(select, [...params]);
  return new Map(rows.map((row) => [id(row.key), row.owner]));
}
