/**
 * The read models' change notifications in the query API (docs/decisions/0013): one
 * PostgreSQL connection per query-API process LISTENs on the read models' change channel (the
 * projector's runner NOTIFYs in every committed batch of the live schema,
 * packages/read-models/src/changes.ts) and
 *
 * - fans every change out to the live team pages' subscribers of the teams it names, in memory
 *   (GET /api/team/{id}/live): a thousand open team pages cost one connection, not a thousand;
 * - keeps each projection's checkpoint as last heard (ProjectionPositions): a query waiting for
 *   `x-min-position` is woken by the notification rather than polling (waitForProjections), and
 *   the answer cache (answer-cache.ts) knows in memory whether a cached answer is still current.
 *
 * A subscriber or waiter only hears of committed read models: PostgreSQL delivers a NOTIFY on
 * commit. The connection is dedicated (a pg.Client, not one of the pool's), since a LISTEN holds
 * its session. When it drops, it reconnects with exponential backoff; notifications sent meanwhile
 * are lost, so after reconnecting it reads every checkpoint again (waking the waiters whose
 * position has come), moves `generation` (cached answers are recomputed), and tells every team
 * subscriber to refetch (with x-min-position) whatever it may have missed.
 */
import pg from 'pg';
import type { TeamChange } from '@sinilill/contracts';
import { ReconnectingListener } from '@sinilill/event-store';
import {
  EVERY_PROJECTION,
  READ_MODEL_CHANGES_CHANNEL,
  READ_MODEL_SCHEMA,
  parseReadModelChange,
  type ReadModelChange,
} from '@sinilill/read-models';

/** Receives the changes of one team (must not throw; a throw is logged and skipped). */
export type TeamChangeListener = (change: TeamChange) => void;

/** What the live route needs: per-team subscriptions to committed read-model changes. */
export interface TeamChangeFeed {
  /**
   * Calls `listener` with `{ teamId, position }` for every committed change that names `teamId`
   * or any team. Returns the unsubscribe function (idempotent).
   */
  subscribe(teamId: number, listener: TeamChangeListener): () => void;
}

/**
 * What a query-API process knows of the projections' checkpoints: for
 * each projection, the highest checkpoint it has seen committed (heard in a notification or read
 * from `rm.checkpoints`). A known position only rises; the read models reflect at least it.
 */
export interface ProjectionPositions {
  /**
   * True while the positions are kept current: the LISTEN is up and the checkpoints were read
   * after it began, so every later commit will be heard. False before start(), while
   * reconnecting and after close(): a known position may then be behind the database's.
   */
  readonly current: boolean;
  /**
   * Moves when the read models may have changed without any position rising: a rebuild's swap
   * (`projection: '*'`, docs/decisions/0005) or a reconnection (notifications lost). Answers cached under an
   * older generation are not served.
   */
  readonly generation: number;
  /** The projection's known checkpoint, a global position (0 when none is known). */
  position(projection: string): number;
  /**
   * Merges checkpoints read from the database (`rm.checkpoints`, committed): raises the known
   * positions that are behind, and tells the change listeners when one rose.
   */
  observe(checkpoints: Readonly<Record<string, number>>): void;
  /**
   * Calls `listener` (synchronously, must not throw) whenever a known position rises or the
   * generation moves. Returns the unsubscribe function (idempotent).
   */
  onChange(listener: () => void): () => void;
}

/** True when `value` is a ProjectionPositions (a ReadModelChangeListener; a test's stub feed is not). */
export function isProjectionPositions(value: unknown): value is ProjectionPositions {
  const candidate = value as Partial<ProjectionPositions> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.position === 'function'
    && typeof candidate.observe === 'function' && typeof candidate.onChange === 'function';
}

/** The logger calls the listener makes (pino's and Fastify's loggers fit). */
export interface LiveLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface ReadModelChangeListenerOptions {
  /** The read models' database (the same DATABASE_URL as the query API's pool). */
  connectionString: string;
  /** Wait before reconnection attempt n (from 0): min(maxMs, minMs * 2^n). Default 250 ms … 10 s. */
  reconnect?: { minMs: number; maxMs: number };
  /**
   * Reads every projection's live checkpoint (readCheckpoints of @sinilill/read-models on the
   * query pool): after each (re)connection and after a rebuild's swap. Default: a short-lived
   * connection of its own. Never the LISTEN connection, whose last statement stays the LISTEN
   * (operators and tests find it by that in pg_stat_activity).
   */
  readCheckpoints?: () => Promise<Record<string, number>>;
  log?: LiveLog;
}

const silent: LiveLog = { info: () => undefined, warn: () => undefined };

/**
 * The process's one LISTEN on READ_MODEL_CHANGES_CHANNEL: fans changes out per team, and keeps
 * the projections' positions (ProjectionPositions). Call start() once before serving, close()
 * when the service stops.
 */
export class ReadModelChangeListener implements TeamChangeFeed, ProjectionPositions {
  private readonly byTeam = new Map<number, Set<TeamChangeListener>>();
  private readonly known = new Map<string, number>();
  private readonly changeListeners = new Set<() => void>();
  private readonly log: LiveLog;
  private readonly listener: ReconnectingListener;
  private currentGeneration = 0;

  constructor(private readonly options: ReadModelChangeListenerOptions) {
    this.log = options.log ?? silent;
    // The checkpoints read on a fresh connection, after its LISTEN (a batch committed before it
    // is in these rows, one after it is heard), observed once the connection counts as up.
    let read: Record<string, number> = {};
    this.listener = new ReconnectingListener({
      connectionString: options.connectionString,
      channel: READ_MODEL_CHANGES_CHANNEL,
      name: 'read-model change listener',
      log: this.log,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
      hooks: {
        notification: (payload) => this.heard(parseReadModelChange(payload)),
        prepare: async () => { read = await this.readCheckpoints(); },
        connected: () => this.observe(read),
        // `current` turned false: the waiters fall back to re-reading the checkpoints.
        lost: () => this.changed(),
        closed: () => this.changed(),
        // Changes committed while nobody listened were not heard: the connection re-read the
        // checkpoints (waking the waiters), a rebuild's swap may have been missed too (new
        // generation), and every team subscriber is told to refetch.
        reconnected: () => {
          this.currentGeneration += 1;
          this.changed();
          this.fanOut({ projection: EVERY_PROJECTION, position: this.highest(), teams: null });
        },
      },
    });
  }

  /**
   * Connects, LISTENs, then reads every checkpoint (so nothing committed before the LISTEN is
   * missed).
   * @throws the connection's error when the first attempt fails (the service fails at start,
   *   rather than serve live streams that never speak); later drops reconnect by themselves.
   */
  async start(): Promise<void> {
    await this.listener.start();
  }

  /** Subscribers over all teams (0 once every stream has closed: nothing leaks). */
  get listenerCount(): number {
    let count = 0;
    for (const listeners of this.byTeam.values()) count += listeners.size;
    return count;
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.listener.listening;
  }

  get current(): boolean {
    return this.listener.listening && !this.listener.closed;
  }

  get generation(): number {
    return this.currentGeneration;
  }

  position(projection: string): number {
    return this.known.get(projection) ?? 0;
  }

  observe(checkpoints: Readonly<Record<string, number>>): void {
    let rose = false;
    for (const [projection, position] of Object.entries(checkpoints)) {
      if (position > (this.known.get(projection) ?? 0)) {
        this.known.set(projection, position);
        rose = true;
      }
    }
    if (rose) this.changed();
  }

  onChange(listener: () => void): () => void {
    // A wrapper per subscription: the same function subscribed twice unsubscribes separately.
    const entry = () => listener();
    this.changeListeners.add(entry);
    return () => {
      this.changeListeners.delete(entry);
    };
  }

  subscribe(teamId: number, listener: TeamChangeListener): () => void {
    let listeners = this.byTeam.get(teamId);
    if (!listeners) {
      listeners = new Set();
      this.byTeam.set(teamId, listeners);
    }
    // A wrapper per subscription: the same function subscribed twice unsubscribes separately.
    const entry: TeamChangeListener = (change) => listener(change);
    listeners.add(entry);
    return () => {
      const current = this.byTeam.get(teamId);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.byTeam.delete(teamId);
    };
  }

  /**
   * Stops listening and reconnecting; subscribers stay registered but hear nothing more, and
   * `current` turns false (waiters fall back to re-reading the checkpoints).
   */
  async close(): Promise<void> {
    await this.listener.close();
  }

  /** A notification heard on the LISTEN. */
  private heard(change: ReadModelChange | null): void {
    if (!change) return;
    if (change.projection === EVERY_PROJECTION) {
      // A rebuild swapped the read models in (docs/decisions/0005): every row may differ, at positions not lower.
      this.currentGeneration += 1;
      this.changed();
      void this.reread();
    } else if (change.position > (this.known.get(change.projection) ?? 0)) {
      this.known.set(change.projection, change.position);
      this.changed();
    }
    this.fanOut(change);
  }

  /** Reads every checkpoint (after a swap); a failure is logged (the next notification or reconnection catches up). */
  private async reread(): Promise<void> {
    try {
      this.observe(await this.readCheckpoints());
    } catch (error) {
      this.log.warn({ err: error }, 'read-model change listener could not read the checkpoints');
    }
  }

  /** Every projection's live checkpoint: the option's reader, else a short-lived connection's. */
  private async readCheckpoints(): Promise<Record<string, number>> {
    if (this.options.readCheckpoints) return this.options.readCheckpoints();
    const client = new pg.Client({ connectionString: this.options.connectionString });
    try {
      await client.connect();
      const result = await client.query<{ projection: string; position: string | number }>(
        `SELECT projection, position FROM ${READ_MODEL_SCHEMA}.checkpoints`,
      );
      return Object.fromEntries(result.rows.map((row) => [row.projection, Number(row.position)]));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** The highest known checkpoint (the catch-up change's position after a reconnection). */
  private highest(): number {
    let highest = 0;
    for (const position of this.known.values()) highest = Math.max(highest, position);
    return highest;
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) {
      try {
        listener();
      } catch (error) {
        this.log.warn({ err: error }, 'a position listener failed');
      }
    }
  }

  private fanOut(change: ReadModelChange): void {
    const teams = change.teams ?? [...this.byTeam.keys()];
    for (const teamId of teams) {
      const listeners = this.byTeam.get(teamId);
      if (!listeners) continue;
      for (const listener of [...listeners]) {
        try {
          listener({ teamId, position: change.position });
        } catch (error) {
          this.log.warn({ err: error, teamId }, 'a live subscriber failed');
        }
      }
    }
  }
}

/** What a wait for a position came to: the position the awaited projections reflect, and whether it reached the one asked for. */
export interface WaitResult {
  /** The lowest checkpoint over the awaited projections (the position asked for when there are none). */
  position: number;
  reached: boolean;
}

export interface WaitForProjectionsOptions {
  /** The projections the answer reads (route config `reads`); none: nothing to wait for. */
  projections: readonly string[];
  /** The global position to wait for (a command's answer's `position`). */
  position: number;
  /** The bound, ms (READ_YOUR_WRITES_TIMEOUT_MS); 0 looks once. */
  timeoutMs: number;
  /** Reads every projection's live checkpoint (readCheckpoints of @sinilill/read-models, on the query pool). */
  read: () => Promise<Record<string, number>>;
  /** The process's positions (its ReadModelChangeListener); without it the wait polls every `pollMs`. */
  positions?: ProjectionPositions;
  /** The safety net's re-read while waiting on notifications (and while the listener reconnects), ms (default 250). */
  recheckMs?: number;
  /** The poll interval without positions, ms (default 15). */
  pollMs?: number;
}

/**
 * Read-your-writes (docs/decisions/0006): waits, at most `timeoutMs`, until every projection in
 * `projections` has reached `position`.
 *
 * With `positions` (the process's one LISTEN): answers at once, without a query, when the known
 * positions have reached it; else subscribes, reads the checkpoints once (a notification may have
 * come before the subscription) and then waits to be woken by a notification, re-reading the
 * checkpoints only every `recheckMs` as a safety net (a notification lost while the listener
 * reconnects: the reconnection itself re-reads them and wakes the waiters). Without `positions`
 * (a test's stub feed) it polls every `pollMs`.
 * A projection the route does not read is never waited for.
 * @returns the lowest checkpoint over `projections` (the read models' state the answer reflects)
 *   and whether it reached `position` within the bound.
 * @throws what `read` throws (a database error: the request answers 500 as any failed read).
 */
export async function waitForProjections(options: WaitForProjectionsOptions): Promise<WaitResult> {
  const { projections: names, position, positions } = options;
  if (names.length === 0) return { position, reached: true };
  const lowest = (checkpoints: Readonly<Record<string, number>>) =>
    Math.min(...names.map((name) => Math.max(checkpoints[name] ?? 0, positions?.position(name) ?? 0)));
  const none: Record<string, number> = {};
  // Known positions are committed facts, current or not: no query needed.
  if (positions && lowest(none) >= position) return { position: lowest(none), reached: true };

  const deadline = performance.now() + options.timeoutMs;
  let wake: (() => void) | null = null;
  const unsubscribe = positions?.onChange(() => wake?.()) ?? (() => undefined);
  try {
    let checkpoints = await options.read();
    positions?.observe(checkpoints);
    for (;;) {
      const reflected = lowest(checkpoints);
      if (reflected >= position) return { position: reflected, reached: true };
      const left = deadline - performance.now();
      if (left <= 0) return { position: reflected, reached: false };
      const interval = positions ? (options.recheckMs ?? 250) : (options.pollMs ?? 15);
      let timer: NodeJS.Timeout | undefined;
      const woken = await new Promise<boolean>((resolve) => {
        wake = () => resolve(true);
        timer = setTimeout(() => resolve(false), Math.min(interval, left));
      });
      wake = null;
      clearTimeout(timer);
      // Woken: the known positions rose (checked above, from memory). Timed out: the safety net.
      if (!woken && performance.now() < deadline) {
        checkpoints = await options.read();
        positions?.observe(checkpoints);
      }
    }
  } finally {
    unsubscribe();
  }
}
