/**
 * Erasures heard across processes: every process that holds a
 * PersonalDataVault (command APIs, projectors, the operators' tools) LISTENs on
 * SUBJECT_ERASED_CHANNEL over one dedicated connection. `PersonalDataVault.forget` NOTIFYs the
 * subject in the statement that deletes its key, so PostgreSQL delivers it only on commit; the
 * listener then drops that subject's cached key from its vaults (`invalidate`), and the next
 * read in that process finds the key gone: the field reads null, milliseconds after the erasure
 * rather than after the cache's TTL (60 s).
 *
 * On a ReconnectingListener (reconnecting-listener.ts), as the query API's read-model change
 * listener (docs/decisions/0013, services/query-api/src/live.ts): a pg.Client of its own, reconnected with
 * exponential backoff when it drops. Erasures committed while nobody listened are not heard,
 * so while the connection is down the vaults cache no live key (`setCoherent(false)`: every read
 * asks the database), and once it is back every cached live key is dropped and caching resumes
 * (after the LISTEN, so an erasure in between is either read from the table or heard).
 */
import { EVERY_SUBJECT, SUBJECT_ERASED_CHANNEL, type PersonalDataVault } from './personal-data';
import { ReconnectingListener, type ListenerLog } from './reconnecting-listener';

/** The logger calls the listener makes (pino's and Fastify's loggers fit). */
export type ErasureListenerLog = ListenerLog;

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
  private readonly listener: ReconnectingListener;

  constructor(options: SubjectErasureListenerOptions) {
    const log = options.log ?? silent;
    const coherent = (value: boolean) => { for (const vault of options.vaults) vault.setCoherent(value); };
    // Until the LISTEN is up, an erasure elsewhere would go unheard: cache no live key.
    coherent(false);
    this.listener = new ReconnectingListener({
      connectionString: options.connectionString,
      channel: SUBJECT_ERASED_CHANNEL,
      name: 'personal-data erasure listener',
      log,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
      hooks: {
        notification: (payload) => {
          // The subject whose key was deleted (EVERY_SUBJECT: any).
          const subject = payload === undefined || payload === '' ? EVERY_SUBJECT : payload;
          for (const vault of options.vaults) vault.invalidate(subject);
          log.info({ subject }, 'personal-data erasure heard: the cached key is dropped');
        },
        // From here every erasure is heard; one committed before the LISTEN is in es.subject_keys,
        // and setCoherent drops every cached live key, so the next read finds it there.
        connected: () => coherent(true),
        // Down or closed: nothing is heard, so no live key is cached.
        lost: () => coherent(false),
        closed: () => coherent(false),
      },
    });
  }

  /**
   * Connects and LISTENs.
   * @throws the connection's error when the first attempt fails (the service fails at start);
   *   later drops reconnect by themselves.
   */
  async start(): Promise<void> {
    await this.listener.start();
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /** Stops listening and reconnecting; the vaults stop caching live keys (nothing is heard any more). */
  async close(): Promise<void> {
    await this.listener.close();
  }
}
