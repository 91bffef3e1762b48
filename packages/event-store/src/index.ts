/**
 * @sinilill/event-store: the EventStore interface (types.ts), its PostgreSQL implementation and
 * schema migrations, the migration runner every schema uses (migrations/runner.ts), and
 * crypto-shredding of personal data as an EventStore decorator.
 */
import './domain-upcasters';
export * from './types';
export { registerUpcasters, upcastEvent, type Upcaster } from './upcasters';
export { createResilientPool, guardPool, waitForPostgres, type PoolLog, type ResilientPoolOptions } from './pool';
export { EVENT_COLUMNS, PostgresEventStore, postgresStreamReader, toRecordedEvent, type EventRow, type PostgresEventStoreOptions } from './postgres-event-store';
export { KurrentDbEventStore, KurrentDbVersionError, PAYLOAD_INDEXES, takeBatch, type KurrentDbEventStoreOptions } from './kurrentdb-event-store';
export * as kurrentDbMapping from './kurrentdb-mapping';
export { createEventStore, type EventStoreEngineOptions } from './engine';
export { POSTGRES_LOG_TABLE, destroyKeysOfDeletedSubjects, postgresLogHead, postgresLogPositions } from './postgres-log-maintenance';
export {
  APPEND_LOCK,
  MIGRATION_LOCK,
  MigrationError,
  eventStoreMigrations,
  legacyVersions,
  pendingMigrations,
  relationsExist,
  runMigrations,
  type MigrationSet,
  type MigrationSetReport,
} from './migrations';
export {
  EVERY_SUBJECT,
  PersonalDataVault,
  SUBJECT_ERASED_CHANNEL,
  withPersonalDataProtection,
  revealPersonalData,
  subjectOf,
  isSealedValue,
  type JsonValue,
  type PersonalDataPolicy,
  type PersonalDataVaultOptions,
  type PersonalFields,
} from './personal-data';
export { SubjectErasureListener, type ErasureListenerLog, type SubjectErasureListenerOptions } from './subject-erasures';
export { aroundAppends, type AroundAppend } from './around-appends';
export { ReconnectingListener, type ListenerHooks, type ListenerLog, type ReconnectingListenerOptions } from './reconnecting-listener';
