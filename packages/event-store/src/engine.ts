/**
 * The event log's engine as configuration: EVENT_STORE=postgres|kurrentdb and
 * KURRENTDB_URL (packages/config's `config.eventStore`). Each service's server.ts builds its store
 * here and wraps it (personal data, after-commit hooks, metrics) the same way for both engines.
 */
import type pg from 'pg';
import { KurrentDbEventStore } from './kurrentdb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import type { EventStore } from './types';

/** config.eventStore plus the PostgreSQL pool (used only when the engine is postgres). */
export interface EventStoreEngineOptions {
  engine: 'postgres' | 'kurrentdb';
  kurrentdbUrl: string | null;
  pool: pg.Pool;
}

/**
 * PostgresEventStore on `pool`, or KurrentDbEventStore on `kurrentdbUrl` (owning its client:
 * close() disposes it).
 * @throws Error when the engine is kurrentdb and no URL is given (loadConfig refuses that earlier).
 */
export function createEventStore(options: EventStoreEngineOptions): EventStore {
  if (options.engine === 'postgres') return new PostgresEventStore({ pool: options.pool });
  if (options.kurrentdbUrl === null) throw new Error('EVENT_STORE=kurrentdb needs KURRENTDB_URL');
  return new KurrentDbEventStore({ connectionString: options.kurrentdbUrl });
}
