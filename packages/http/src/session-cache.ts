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
 *   @sinilill/event-store given `hooks`) drops that account's standings when it hears it.
 *   PostgreSQL signals the listening connections while the writer's COMMIT is answered, so the
 *   drop lands well before a client can send its next request (decision 0100 has the measured
 *   figures).
 * - While the LISTEN is not connected (before the first connection, after a drop, until it is up
 *   again), or the database has no such triggers (a migration pending), nothing is kept and every check goes to the authority: a change made while nobody
 *   listened is never missed. Each connection drops everything kept before it.
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

/** The part of a pg.Client the listener's `prepare` uses. */
export interface SqlClient {
  query(text: string): Promise<{ rows: readonly unknown[] }>;
}

/** What a ReconnectingListener (@sinilill/event-store) calls: its ListenerHooks. */
export interface SessionListenerHooks {
  notification(payload: string | undefined): void;
  prepare(client: SqlClient): Promise<void>;
  connected(): void;
  lost(): void;
  closed(): void;
}

/** Both triggers of accounts migration 0007 exist: only then is every change heard. */
const TRIGGERS_PRESENT = `SELECT count(*) = 2 AS present FROM pg_trigger
  WHERE tgname IN ('account_sessions_notify', 'session_families_notify') AND NOT tgisinternal`;

/** Options of SessionCache. */
export interface SessionCacheOptions {
  /** Longest a live standing is kept without asking again, ms (default 60 000). */
  maxAgeMs?: number;
  /** Most standings kept (default 100 000). */
  maxEntries?: number;
  /** The clock of the ages, epoch ms (default Date.now). */
  now?: () => number;
  /** Called when the database has no session triggers, so nothing is kept (log a warning). */
  onUnnotified?: () => void;
}

interface Kept {
  standing: SessionStanding;
  at: number;
}

/** A SessionAuthority that keeps live sessions while its LISTEN is connected (see the module's comment). */
export class SessionCache implements SessionAuthority {
  private readonly kept = new Map<string, Map<string, Kept>>();
  private size = 0;
  private coherent = false;
  /** The session tables' triggers were found on the listener's connection. */
  private notified = false;
  private readonly onUnnotified: (() => void) | undefined;
  /** Moves on every notification and connection change: a read that saw it move keeps nothing. */
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Checks answered from memory and from the authority since start (metrics, tests). */
  readonly counts = { kept: 0, asked: 0 };

  /**
   * The hooks of the process's LISTEN on SESSION_CHANGES_CHANNEL: pass them to a
   * ReconnectingListener (`hooks`) and start it; until it is connected nothing is kept.
   */
  readonly hooks: SessionListenerHooks = {
    notification: (payload) => this.changed(payload),
    // After the LISTEN, before it counts as up: anything kept from before may have missed a change.
    // A database without the triggers (its accounts migration 0007 pending) notifies nothing:
    // then nothing is kept, and every check asks the authority.
    prepare: async (client) => {
      this.drop();
      const { rows } = await client.query(TRIGGERS_PRESENT);
      this.notified = (rows[0] as { present?: boolean } | undefined)?.present === true;
      if (!this.notified) this.onUnnotified?.();
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

  /** Drops the account's kept standings (a notification; also the writer's own process may call it). */
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
    this.drop();
  }
}
