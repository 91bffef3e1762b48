/**
 * Erasures heard across processes (issue 17 item 11): every process that holds a
 * PersonalDataVault (command APIs, projectors, the operators' tools) LISTENs on
 * SUBJECT_ERASED_CHANNEL over one dedicated connection. `PersonalDataVault.forget` NOTIFYs the
 * subject in the statement that deletes its key, so PostgreSQL delivers it only on commit; the
 * listener then drops that subject's cached key from its vaults (`invalidate`), and the next
 * read in that process finds the key gone: the field reads null, milliseconds after the erasure
 * rather than after the cache's TTL (60 s).
 *
 * The same pattern as the query API's read-model change listener (D13,
 * services/query-api/src/live.ts): a pg.Client of its own (a LISTEN holds its session), reconnect
 * with exponential backoff when it drops. Erasures committed while nobody listened are not heard,
 * so while the connection is down the vaults cache no live key (`setCoherent(false)`: every read
 * asks the database), and once it is back every cached live key is dropped and caching resumes
 * (after the LISTEN, so an erasure in between is either read from the table or heard).
 */
import pg from 'pg';
import { EVERY_SUBJECT, SUBJECT_ERASED_CHANNEL, type PersonalDataVault } from './personal-data';

/** The logger calls the listener makes (pino's and Fastify's loggers fit). */
export interface ErasureListenerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Options of SubjectErasureListener. */
export interface SubjectErasureListenerOptions {
  /** The event store's database (the vaults' pool's DATABASE_URL). */
  connectionString: string;
  /** The vaults whose caches follow the erasures (usually the process's one). */
  vaults: readonly PersonalDataVault[];
  /** Wait before reconnection attempt n (from 0): min(maxMs, minMs * 2^n). Default 250 ms … 10 s. */
  reconnect?: { minMs: number; maxMs: number };
  /** Where each heard erasure (info) and each lost connection (warn) is logged; default silent. */
  log?: ErasureListenerLog;
}

const silent: ErasureListenerLog = { info: () => undefined, warn: () => undefined };

/**
 * The process's LISTEN on SUBJECT_ERASED_CHANNEL. Call start() once before serving (the vaults
 * cache no live key until it has connected), close() when the process stops.
 */
export class SubjectErasureListener {
  private readonly log: ErasureListenerLog;
  private readonly reconnectDelay: { minMs: number; maxMs: number };
  private client: pg.Client | null = null;
  private closed = false;
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: SubjectErasureListenerOptions) {
    this.log = options.log ?? silent;
    this.reconnectDelay = options.reconnect ?? { minMs: 250, maxMs: 10_000 };
    // Until the LISTEN is up, an erasure elsewhere would go unheard: cache no live key.
    for (const vault of options.vaults) vault.setCoherent(false);
  }

  /**
   * Connects and LISTENs.
   * @throws the connection's error when the first attempt fails (the service fails at start);
   *   later drops reconnect by themselves.
   */
  async start(): Promise<void> {
    await this.connect();
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Stops listening and reconnecting; the vaults stop caching live keys (nothing is heard any more). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    for (const vault of this.options.vaults) vault.setCoherent(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // keepAlive: a connection that died without a FIN (a host gone) is noticed, not trusted forever.
    const client = new pg.Client({ connectionString: this.options.connectionString, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === SUBJECT_ERASED_CHANNEL) this.heard(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      // The channel is our own constant identifier: nothing from outside enters the statement.
      await client.query(`LISTEN ${SUBJECT_ERASED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // From here every erasure is heard; one committed before the LISTEN is in es.subject_keys,
    // and setCoherent drops every cached live key, so the next read finds it there.
    for (const vault of this.options.vaults) vault.setCoherent(true);
  }

  /** A notification: the subject whose key was deleted (EVERY_SUBJECT: any). */
  private heard(payload: string | undefined): void {
    const subject = payload === undefined || payload === '' ? EVERY_SUBJECT : payload;
    for (const vault of this.options.vaults) vault.invalidate(subject);
    this.log.info({ subject }, 'personal-data erasure heard: the cached key is dropped');
  }

  /** The connection failed or ended: stop caching live keys and, unless closing, reconnect. */
  private lost(client: pg.Client, error: Error | null): void {
    if (client !== this.client) return; // a connection still being set up, or one already let go
    this.client = null;
    for (const vault of this.options.vaults) vault.setCoherent(false);
    this.log.warn({ err: error }, 'personal-data erasure listener lost its connection; reconnecting');
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
      this.log.warn({ err: error, attempt: this.attempts }, 'personal-data erasure listener could not reconnect');
      if (!this.closed) this.scheduleReconnect();
      return;
    }
    if (this.closed) return;
    this.attempts = 0;
    this.log.info({}, 'personal-data erasure listener reconnected');
  }
}
