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

/**
 * Refuses, at start, a feature that reads the PostgreSQL log directly (by SQL on es.*) when the
 * log is in KurrentDB: better a clear start-up error than a feature that silently sees nothing.
 * @throws Error naming the feature and the engine.
 */
export function requirePostgresLog(engine: 'postgres' | 'kurrentdb', feature: string): void {
  if (engine !== 'postgres') throw new Error(`EVENT_STORE=${engine}: ${feature} reads the event log by SQL and needs EVENT_STORE=postgres (docs/event-store-engines.md)`);
}
