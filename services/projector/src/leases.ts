/**
 * Projection leases: how N projector processes on one database share the
 * projections, each projection worked by one process at a time.
 *
 * A lease is a PostgreSQL session-level advisory lock, `(LEASE_LOCK_CLASS, hashtext('rm.<name>'))`
 * in the two-key form, held on one dedicated connection per process (LeaseSession). The key
 * differs from the runner's transaction lock (`hashtext('projection:rm.<name>')`, one bigint key):
 * the lease says who works a projection, the runner's lock still serialises every batch, so a
 * lease held twice for a moment (a process that has not yet noticed it lost its connection) costs
 * only turns, never a double apply.
 *
 * Live processes: each process also holds a member lock `(MEMBER_LOCK_CLASS, pg_backend_pid())` on
 * the same connection, so the registry is pg_locks itself. A process that dies (SIGKILL, crash,
 * network gone) closes its connection, and its member lock and its leases free together, at once:
 * the survivors see fewer members and the leases unheld at their next tick.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { READ_MODEL_SCHEMA } from '@sinilill/read-models';

/** First key of a lease lock ('pl' in ASCII: projector lease). */
export const LEASE_LOCK_CLASS = 0x706c;
/** First key of a member lock ('pm': projector member); the second key is the connection's backend pid. */
export const MEMBER_LOCK_CLASS = 0x706d;

/** The text whose hashtext is a projection's lease key (second key of its lease lock). */
function leaseKeyText(projection: string): string {
  return `${READ_MODEL_SCHEMA}.${projection}`;
}

/**
 * How many projections each of `members` live processes aims to hold: ceil(projections /
 * members), `projections` when no member is counted (a process alone holds them all).
 */
export function fairShare(projections: number, members: number): number {
  return Math.ceil(projections / Math.max(1, members));
}

/**
 * Which of `held` (this process's leases, oldest claim first) to give back to come down to
 * `share`: every other one from the second, then the rest from the newest. A process that held
 * every projection in their listed order so keeps the first and the third (team-stats, settings)
 * and gives back the second (team-directory): the two heaviest projections, listed first, end up
 * in different processes instead of together (measured on the 2025 edition: team-stats and
 * team-directory each cost about twice any other).
 */
export function leasesToRelease(held: readonly string[], share: number): string[] {
  const excess = held.length - share;
  if (excess <= 0) return [];
  const alternate = held.filter((_, i) => i % 2 === 1);
  const rest = held.filter((_, i) => i % 2 === 0).reverse();
  return [...alternate, ...rest].slice(0, excess);
}

export interface LeaseSessionOptions {
  /** The database whose projections are leased (the same one the runs write to). */
  databaseUrl: string;
  /**
   * Told once when the session is lost under the process (its connection broke or a lease query
   * failed): every lease it held is gone at that moment (the server ended the session or will
   * when it notices), so the process must stop working `lost` at once.
   */
  onLost: (lost: readonly string[], error: unknown) => void;
}

/**
 * One process's lease connection: registers the process as a member, counts the members,
 * claims and releases leases. One query at a time (the caller's tick serialises them).
 *
 * Any failed query ends the session (the connection is closed, so the server frees whatever it
 * still held) and reports the loss: a session is either fully alive or gone, never half-known.
 */
export class LeaseSession {
  private readonly options: LeaseSessionOptions;
  private client: pg.Client | null = null;
  private backendPid: number | null = null;
  /** Held leases, in the order they were claimed. */
  private readonly leases = new Set<string>();

  constructor(options: LeaseSessionOptions) {
    this.options = options;
  }

  /** Whether the connection is open and registered. */
  get isOpen(): boolean {
    return this.client !== null;
  }

  /** The backend pid of the lease connection (its member key), null when not open. */
  get pid(): number | null {
    return this.backendPid;
  }

  /** The projections whose lease this session holds, oldest claim first. */
  held(): string[] {
    return [...this.leases];
  }

  /**
   * Connects and registers as a member (the member lock). Resolves when done.
   * @throws the connection's or the query's error (the half-made connection is closed).
   */
  async open(): Promise<void> {
    if (this.client) return;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl, application_name: 'sinilill-projector-leases', keepAlive: true,
    });
    // After open, a broken connection means the leases are gone (see lose); before, open throws.
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error('the lease connection ended')));
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pg_backend_pid() AS pid, pg_advisory_lock($1, pg_backend_pid())', [MEMBER_LOCK_CLASS]);
      this.backendPid = rows[0]!.pid;
      this.client = client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** Live projector processes on this database: member locks in pg_locks (this one included). */
  async members(): Promise<number> {
    const rows = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::int::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [MEMBER_LOCK_CLASS]);
    return rows[0]?.n ?? 0;
  }

  /** Takes `projection`'s lease if no process holds it; true when this session now holds it. */
  async tryClaim(projection: string): Promise<boolean> {
    if (this.leases.has(projection)) return true;
    const rows = await this.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LEASE_LOCK_CLASS, leaseKeyText(projection)]);
    if (rows[0]?.ok) this.leases.add(projection);
    return rows[0]?.ok ?? false;
  }

  /** Gives `projection`'s lease back (the caller has stopped working it). */
  async release(projection: string): Promise<void> {
    if (!this.leases.has(projection)) return;
    await this.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LEASE_LOCK_CLASS, leaseKeyText(projection)]);
    this.leases.delete(projection);
  }

  /**
   * Ends the session: every lease and the member lock are given back (unlocked, then the
   * connection closed, which frees them anyway). Never throws; reports no loss.
   */
  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.backendPid = null;
    this.leases.clear();
    if (!client) return;
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  /** Runs a query on the lease connection; a failure ends the session (see the class docs). */
  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    const client = this.client;
    if (!client) throw new Error('the lease session is not open');
    try {
      return (await client.query<R>(text, values)).rows;
    } catch (error) {
      this.lose(client, error);
      throw error;
    }
  }

  /** The session on `client` is gone: forget its leases, close it, tell the owner once. */
  private lose(client: pg.Client, error: unknown): void {
    if (client !== this.client) return;
    const lost = this.held();
    this.client = null;
    this.backendPid = null;
    this.leases.clear();
    client.end().catch(() => undefined);
    this.options.onLost(lost, error);
  }
}

/**
 * Who holds each projection's lease on the database of `db`, from pg_locks: projection name →
 * backend pid of the holder's lease connection, null when unheld. For operators and tests.
 */
export async function readLeaseHolders<DB>(db: Kysely<DB>, projections: readonly string[]): Promise<Record<string, number | null>> {
  const { rows } = await sql<{ projection: string; pid: number | null }>`
    SELECT n.projection, l.pid
      FROM unnest(${[...projections]}::text[]) AS n(projection)
      LEFT JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
        AND l.classid = ${LEASE_LOCK_CLASS}::int::oid
        AND l.objid = hashtext(${READ_MODEL_SCHEMA} || '.' || n.projection)::oid
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(db);
  return Object.fromEntries(projections.map((name) => [name, rows.find((row) => row.projection === name)?.pid ?? null]));
}
