/**
 * One PostgreSQL LISTEN that survives its connection (docs/decisions/0013): a pg.Client of its
 * own (a LISTEN holds its session), reconnected with exponential backoff when it drops. The
 * processes' listeners are built on it: the query API's read-model changes (services/query-api
 * live.ts) and the personal-data erasures every vault follows (subject-erasures.ts).
 *
 * A notification committed while nobody listened is never delivered, so each user says what a
 * gap means through the hooks: `prepare` runs on a fresh connection after the LISTEN and before
 * it counts as up (read what may have been missed), `connected` once it is up, `lost` once it is
 * down (not on close), `reconnected` after a reconnection (not the first connection), `closed`
 * after close().
 */
import pg from 'pg';

/** The logger calls a listener makes (pino's and Fastify's loggers fit). */
export interface ListenerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** What a ReconnectingListener tells its user (all but `notification` optional). */
export interface ListenerHooks {
  /** A notification on the channel, its payload as sent (undefined when none). */
  notification(payload: string | undefined): void;
  /** On a fresh connection, after the LISTEN, before it counts as up; what it throws fails the attempt. */
  prepare?(client: pg.Client): Promise<void>;
  /** The connection is up (`listening` is true): the first one and every reconnection. */
  connected?(): void;
  /** The connection dropped (`listening` is false); a reconnection is scheduled unless closing. */
  lost?(): void;
  /** A reconnection succeeded, after `connected`. */
  reconnected?(): void;
  /** close() let the connection go. */
  closed?(): void;
}

/** Options of ReconnectingListener. */
export interface ReconnectingListenerOptions {
  /** The database to LISTEN on. */
  connectionString: string;
  /** The channel: a constant identifier of ours (it enters the LISTEN statement as it is). */
  channel: string;
  /** Names the listener in its log lines, e.g. 'read-model change listener'. */
  name: string;
  hooks: ListenerHooks;
  /** Wait before reconnection attempt n (from 0): min(maxMs, minMs * 2^n). Default 250 ms … 10 s. */
  reconnect?: { minMs: number; maxMs: number };
  /** TCP keep-alive on the connection, so that one that died without a FIN is noticed (default true). */
  keepAlive?: boolean;
  /** Where lost connections (warn) and reconnections (info) are logged; default silent. */
  log?: ListenerLog;
}

const silent: ListenerLog = { info: () => undefined, warn: () => undefined };

/** A LISTEN on one channel that reconnects by itself; start() once, close() when done. */
export class ReconnectingListener {
  private readonly log: ListenerLog;
  private readonly reconnectDelay: { minMs: number; maxMs: number };
  private client: pg.Client | null = null;
  private closing = false;
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ReconnectingListenerOptions) {
    this.log = options.log ?? silent;
    this.reconnectDelay = options.reconnect ?? { minMs: 250, maxMs: 10_000 };
  }

  /**
   * Connects, LISTENs and runs `prepare`.
   * @throws the first attempt's error (a service then fails at start); later drops reconnect by themselves.
   */
  async start(): Promise<void> {
    await this.connect();
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** True once close() was called. */
  get closed(): boolean {
    return this.closing;
  }

  /** Stops listening and reconnecting. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.options.hooks.closed?.();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { connectionString, channel, hooks } = this.options;
    const client = new pg.Client({ connectionString, keepAlive: this.options.keepAlive ?? true });
    client.on('notification', (message) => {
      if (message.channel === channel) hooks.notification(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      await hooks.prepare?.(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closing) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    hooks.connected?.();
  }

  /** The connection failed or ended: forget it and, unless closing, reconnect. */
  private lost(client: pg.Client, error: Error | null): void {
    if (client !== this.client) return; // a connection still being set up, or one already let go
    this.client = null;
    this.log.warn({ err: error }, `${this.options.name} lost its connection; reconnecting`);
    void client.end().catch(() => undefined);
    this.options.hooks.lost?.();
    if (!this.closing) this.scheduleReconnect();
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
    if (this.closing) return;
    try {
      await this.connect();
    } catch (error) {
      this.log.warn({ err: error, attempt: this.attempts }, `${this.options.name} could not reconnect`);
      if (!this.closing) this.scheduleReconnect();
      return;
    }
    if (this.closing) return;
    this.attempts = 0;
    this.log.info({}, `${this.options.name} reconnected`);
    this.options.hooks.reconnected?.();
  }
}
