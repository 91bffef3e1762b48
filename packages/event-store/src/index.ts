/**
 * @sinilill/event-store: the EventStore interface (types.ts), its PostgreSQL implementation and
 * schema migration, and crypto-shredding of personal data as an EventStore decorator.
 */
export * from './types';
export { EVENT_COLUMNS, PostgresEventStore, migrateEventStore, toRecordedEvent, type EventRow, type PostgresEventStoreOptions } from './postgres-event-store';
export { APPEND_LOCK, runSqlMigrations, type Migration } from './migrations';
export {
  PersonalDataVault,
  withPersonalDataProtection,
  revealPersonalData,
  subjectOf,
  isSealedValue,
  type JsonValue,
  type PersonalDataPolicy,
  type PersonalDataVaultOptions,
  type PersonalFields,
} from './personal-data';
