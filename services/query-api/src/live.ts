/**
 * Live updates of the team page (issue 4, GET /api/team/{id}/live): one PostgreSQL connection
 * per query-API process LISTENs on the read models' change channel (the projector's runner
 * NOTIFYs in each committed batch, packages/read-models/src/changes.ts) and fans every change out
 * to the subscribers of the teams it names, in memory. So a thousand open team pages cost one
 * connection, not a thousand, and a subscriber only hears of committed read models.
 *
 * The connection is dedicated (a pg.Client, not one of the pool's), since a LISTEN holds its
 * session. When it drops, it reconnects with exponential backoff; notifications sent meanwhile
 * are lost, so after reconnecting every subscriber gets one change at the newest checkpoint and
 * refetches (with x-min-position) whatever it may have missed.
 */
import pg from 'pg';
import type { TeamChange } from '@sinilill/contracts';
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
  log?: LiveLog;
}

const silent: LiveLog = { info: () => undefined, warn: () => undefined };

/**
 * The process's one LISTEN on READ_MODEL_CHANGES_CHANNEL, fanning changes out per team.
 * Call start() once before serving, close() when the service stops.
 */
export class ReadModelChangeListener implements TeamChangeFeed {
  private readonly byTeam = new Map<number, Set<TeamChangeListener>>();
  private readonly log: LiveLog;
  private readonly reconnectDelay: { minMs: number; maxMs: number };
  private client: pg.Client | null = null;
  private closed = false;
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Highest position heard of, the fallback for the catch-up change after a reconnection. */
  private lastPosition = 0;

  constructor(private readonly options: ReadModelChangeListenerOptions) {
    this.log = options.log ?? silent;
    this.reconnectDelay = options.reconnect ?? { minMs: 250, maxMs: 10_000 };
  }

  /**
   * Connects and LISTENs.
   * @throws the connection's error when the first attempt fails (the service fails at start,
   *   rather than serve live streams that never speak); later drops reconnect by themselves.
   */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Subscribers over all teams (0 once every stream has closed: nothing leaks). */
  get listenerCount(): number {
    let count = 0;
    for (const listeners of this.byTeam.values()) count += listeners.size;
    return count;
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.client !== null;
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

  /** Stops listening and reconnecting; subscribers stay registered but hear nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      if (message.channel === READ_MODEL_CHANGES_CHANNEL) this.dispatch(parseReadModelChange(message.payload));
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      // The channel is our own constant identifier: nothing from outside enters the statement.
      await client.query(`LISTEN ${READ_MODEL_CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  /** The connection failed or ended: forget it and, unless closing, reconnect. */
  private lost(client: pg.Client, error: Error | null): void {
    if (client !== this.client) return; // a connection still being set up, or one already let go
    this.client = null;
    this.log.warn({ err: error }, 'read-model change listener lost its connection; reconnecting');
    void client.end().catch(() => undefined);
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const { minMs, maxMs } = this.reconnectDelay;
    const delay = Math.min(maxMs, minMs * 2 ** Math.min(this.attempts, 30));
    this.attempts += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.reconnect();
    }, delay);
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    try {
      await this.connect();
    } catch (error) {
      this.log.warn({ err: error, attempt: this.attempts }, 'read-model change listener could not reconnect');
      if (!this.closed) this.scheduleReconnect();
      return;
    }
    this.attempts = 0;
    this.log.info({}, 'read-model change listener reconnected');
    // Changes committed while nobody listened were not heard: tell every subscriber to refetch.
    this.dispatch({ projection: EVERY_PROJECTION, position: await this.newestCheckpoint(), teams: null });
  }

  /** The highest checkpoint of the live read models (the last heard position if it cannot be read). */
  private async newestCheckpoint(): Promise<number> {
    try {
      const result = await this.client?.query<{ position: string | number | null }>(
        `SELECT max(position) AS position FROM ${READ_MODEL_SCHEMA}.checkpoints`,
      );
      const position = Number(result?.rows[0]?.position ?? 0);
      return Math.max(this.lastPosition, Number.isSafeInteger(position) ? position : 0);
    } catch {
      return this.lastPosition;
    }
  }

  private dispatch(change: ReadModelChange | null): void {
    if (!change) return;
    this.lastPosition = Math.max(this.lastPosition, change.position);
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
