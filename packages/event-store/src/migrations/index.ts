/**
 * The event store's migrations (schema `es`), one file each, listed here by name: a static
 * provider, so the bundled services carry them (see runner.ts).
 */
import * as eventLog from './0001-event-log';
import * as appendBatch from './0002-append-batch';
import * as payloadIndexes from './0003-payload-indexes';
import * as leanAppend from './0004-lean-append';
import { legacyVersions, type MigrationSet } from './runner';

export { APPEND_LOCK } from './0001-event-log';
export * from './runner';

/**
 * Schema `es`: the streams, the log, the subject keys, `es.append`, `es.append_batch` (group
 * commit, made lean by 0004), `es.read_all_of_types` and the payload indexes of the filtered reads.
 * Run it with `runMigrations(pool, [eventStoreMigrations])` (the event store alone, as this
 * package's tests do) or through the CLI's migrateToLatest (every schema).
 */
export const eventStoreMigrations: MigrationSet = {
  name: 'event store',
  schema: 'es',
  migrations: {
    '0001-event-log': eventLog,
    '0002-append-batch': appendBatch,
    '0003-payload-indexes': payloadIndexes,
    '0004-lean-append': leanAppend,
  },
  // The old runner's version 1 is 0001-event-log.
  legacy: async (db) => ((await legacyVersions(db, 'es.schema_migrations')).includes(1) ? ['0001-event-log'] : []),
};
