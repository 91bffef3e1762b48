/**
 * Live sessions held in memory per process, so that an authenticated request costs no PostgreSQL
 * round trip for its session check (docs/decisions/0100). Wraps the SessionAuthority the auth
 * plugin would otherwise ask on every request (AccountService, sqlSessionAuthority).
 *
 * Correctness comes first: a session that ends is refused on the next request in every process.
 * - Only a live standing is kept (the account's version, not ended, the token's family not
 *   revoked). A refusal is never kept: it is asked again, so nothing that was refused once can
 *   become accepted by mistake, and a new login needs no invalidation.
 * - Every write that can end a session (a raised session version, a deleted account, a logout, a
 *   revoked family) NOTIFYs SESSION_CHANGES_CHANNEL with the account's id on commit (triggers of
 *   accounts migration 0007). The process's LISTEN (a ReconnectingListener of
 *   @sinilill/event-store given `hooks`, its connection named SESSION_LISTENER_NAME) drops that
 *   account's standings when it hears it, and answers `ack:<account>` on the same channel.
 * - The process that wrote the change answers its caller only once every listening process has
 *   acknowledged it (`heard`, called by AccountDirectory after its COMMIT; the listeners counted
 *   in pg_stat_activity by their connection's name; at most `maxWaitMs`): so the caller's next
 *   request, to whichever process, finds the session dropped. Measured without it: a process
 *   heard the change up to 8 ms after the writer's answer on a loaded machine.
 * - While the LISTEN is not connected (before the first connection, after a drop, until it is up
 *   again), or the database has no such triggers (a migration pending), nothing is kept and every
 *   check goes to the authority: a change made while nobody listened is never missed. Each
 *   connection drops everything kept before it.
 * - A standing read while a notification arrived (or the connection changed) is not kept: it may
 *   predate the change the notification announced. A generation counter tells.
 * - A kept standing is asked again after `maxAgeMs` (default 60 s): the bound of staleness should
 *   the LISTEN connection die without anyone noticing (no FIN, TCP keep-alive not yet tripped).
 *
 * Memory: at most `maxEntries` (default 100 000) standings; past it the map starts again.
 */
import type { AccountStanding, SessionAuthority, SessionStanding } from './session-authority';

/**
 * The channel the session tables' triggers notify on, payload the account's id
 * (@sinilill/commands accounts migration 0007 creates them with the same name).
 */
export const SESSION_CHANGES_CHANNEL = 'session_changes';

/** The application_name of every LISTEN connection of a SessionCache (counted by `heard`). */
export const SESSION_LISTENER_NAME = 'sinilill-session-listener';

/** `connectionString` with its connection named SESSION_LISTENER_NAME (the LISTEN's, for ReconnectingListener). */
export function sessionListenerUrl(connectionString: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('application_name', SESSION_LISTENER_NAME);
  return url.toString();
}

/** The part of a pg.Client the listener's hooks use. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: readonly unknown[] }>;
}

/** What a ReconnectingListener (@sinilill/event-store) calls: its ListenerHooks. */
export interface SessionListenerHooks {
  notification(payload: string | undefined): void;
  prepare(client: SqlClient): Promise<void>;
  connected(): void;
  lost(): void;
  closed(): void;
}

/** Options of SessionCache. */
export interface SessionCacheOptions {
  /** Longest a live standing is kept without asking again, ms (default 60 000). */
  maxAgeMs?: number;
  /** Most standings kept (default 100 000). */
  maxEntries?: number;
  /** Longest a writer waits in `heard` for the listeners' acknowledgements, ms (default 1 000). */
  maxWaitMs?: number;
  /** The clock of the ages, epoch ms (default Date.now). */
  now?: () => number;
  /** Called when the database has no session triggers, so nothing is kept (log a warning). */
  onUnnotified?: () => void;
}

/** Both triggers of accounts migration 0007 exist: only then is every change heard. */
const TRIGGERS_PRESENT = `SELECT count(*) = 2 AS present FROM pg_trigger
  WHERE tgname IN ('account_sessions_notify', 'session_families_notify') AND NOT tgisinternal`;
const LISTENERS = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = '${SESSION_LISTENER_NAME}' AND datname = current_database()`;
const ACK = 'ack:';

interface Kept {
  standing: SessionStanding;
  at: number;
}

interface Waiter {
  userIds: readonly string[];
  since: number;
  listeners: number;
  resolve(): void;
  timer: NodeJS.Timeout;
}

/** A SessionAuthority that keeps live sessions while its LISTEN is connected (see the module's comment). */
export class SessionCache implements SessionAuthority {
  private readonly kept = new Map<string, Map<string, Kept>>();
  private size = 0;
  private coherent = false;
  /** The session tables' triggers were found on the listener's connection. */
  private notified = false;
  /** The LISTEN connection (for the acknowledgements and the count of listeners). */
  private client: SqlClient | null = null;
  /** Moves on every notification and connection change: a read that saw it move keeps nothing. */
  private generation = 0;
  /** Counts the acknowledgements heard; `heard` waits for those after its mark. */
  private sequence = 0;
  /** Each account's acknowledgements heard: their sequence numbers, newest last. */
  private readonly acks = new Map<string, number[]>();
  private readonly waiters = new Set<Waiter>();
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly onUnnotified: (() => void) | undefined;
  /** Checks answered from memory and from the authority since start (metrics, tests). */
  readonly counts = { kept: 0, asked: 0 };

  /**
   * The hooks of the process's LISTEN on SESSION_CHANGES_CHANNEL: pass them to a
   * ReconnectingListener (`hooks`) whose connection is named SESSION_LISTENER_NAME, and start
   * it; until it is connected nothing is kept.
   */
  readonly hooks: SessionListenerHooks = {
    notification: (payload) => this.notification(payload),
    // After the LISTEN, before it counts as up: anything kept from before may have missed a change.
    // A database without the triggers (its accounts migration 0007 pending) notifies nothing:
    // then nothing is kept, and every check asks the authority.
    prepare: async (client) => {
      this.drop();
      const { rows } = await client.query(TRIGGERS_PRESENT);
      this.notified = (rows[0] as { present?: boolean } | undefined)?.present === true;
      if (!this.notified) this.onUnnotified?.();
      this.client = client;
    },
    connected: () => {
      this.drop();
      this.coherent = this.notified;
    },
    lost: () => this.incoherent(),
    closed: () => this.incoherent(),
  };

  constructor(private readonly authority: SessionAuthority, options: SessionCacheOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.maxWaitMs = options.maxWaitMs ?? 1_000;
    this.now = options.now ?? Date.now;
    this.onUnnotified = options.onUnnotified;
  }

  /** True while changes are heard, so live standings are kept. */
  get listening(): boolean {
    return this.coherent;
  }

  /** See SessionAuthority.session: from memory when a live standing is kept and fresh, else the authority's. */
  async session(userId: string, sessionId: string): Promise<SessionStanding | null> {
    const now = this.now();
    const hit = this.coherent ? this.kept.get(userId)?.get(sessionId) : undefined;
    if (hit && now - hit.at < this.maxAgeMs) {
      this.counts.kept += 1;
      return hit.standing;
    }
    this.counts.asked += 1;
    const generation = this.generation;
    const coherent = this.coherent;
    const standing = await this.authority.session(userId, sessionId);
    if (coherent && this.coherent && generation === this.generation && standing && !standing.ended && standing.familyLive) {
      this.keep(userId, sessionId, { standing, at: now });
    }
    return standing;
  }

  /** See SessionAuthority.account (administrators only): always the authority's. */
  account(userId: string): Promise<AccountStanding> {
    return this.authority.account(userId);
  }

  /** Drops the account's kept standings (every account's without one). */
  changed(userId: string | undefined): void {
    this.generation += 1;
    if (userId === undefined || userId === '') {
      this.drop();
      return;
    }
    const sessions = this.kept.get(userId);
    if (sessions) {
      this.size -= sessions.size;
      this.kept.delete(userId);
    }
  }

  /** A mark for `heard`, taken before the COMMIT of a session change (AccountDirectory's SessionChangeWaiter). */
  mark(): number {
    return this.sequence;
  }

  /**
   * Resolves once every listening process (this one included) has acknowledged a change of each
   * of `userIds` after `since` (a mark); at once while this process is not listening (it keeps
   * nothing then); after `maxWaitMs` at the latest (a listener that connected after the commit
   * never acknowledges it, and starts empty anyway). Never rejects.
   */
  async heard(userIds: readonly string[], since: number): Promise<void> {
    const client = this.client;
    if (!this.coherent || !client || userIds.length === 0) return;
    let listeners: number;
    try {
      const { rows } = await client.query(LISTENERS);
      listeners = Number((rows[0] as { n?: number } | undefined)?.n ?? 0);
    } catch {
      // The connection is going: lost() settles everything; nothing more to wait for here.
      return;
    }
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        userIds, since, listeners,
        resolve: () => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve();
        },
        timer: setTimeout(() => waiter.resolve(), this.maxWaitMs),
      };
      this.waiters.add(waiter);
      this.settle();
    });
  }

  private notification(payload: string | undefined): void {
    if (payload?.startsWith(ACK)) {
      const userId = payload.slice(ACK.length);
      this.sequence += 1;
      if (this.acks.size >= this.maxEntries) this.acks.clear();
      const heard = this.acks.get(userId) ?? [];
      heard.push(this.sequence);
      // Enough for any count of listeners a site runs.
      if (heard.length > 64) heard.shift();
      this.acks.set(userId, heard);
      this.settle();
      return;
    }
    this.changed(payload);
    // Dropped: tell the writer (and everyone) so; a failure is the connection's, seen by lost().
    this.client?.query(`SELECT pg_notify('${SESSION_CHANGES_CHANNEL}', $1)`, [`${ACK}${payload ?? ''}`]).catch(() => undefined);
  }

  private settle(): void {
    for (const waiter of [...this.waiters]) {
      const done = !this.coherent || waiter.userIds.every((id) => (this.acks.get(id) ?? []).filter((seq) => seq > waiter.since).length >= waiter.listeners);
      if (done) waiter.resolve();
    }
  }

  private keep(userId: string, sessionId: string, kept: Kept): void {
    if (this.size >= this.maxEntries) this.drop();
    let sessions = this.kept.get(userId);
    if (!sessions) this.kept.set(userId, (sessions = new Map()));
    if (!sessions.has(sessionId)) this.size += 1;
    sessions.set(sessionId, kept);
  }

  private drop(): void {
    this.generation += 1;
    this.kept.clear();
    this.size = 0;
  }

  private incoherent(): void {
    this.coherent = false;
    this.client = null;
    this.drop();
    // Nothing is kept here now: no writer of this process needs to wait.
    this.settle();
  }
}
