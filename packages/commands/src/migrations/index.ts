/**
 * The command side's migrations (schema `app`: id sequences, account and session tables), one
 * file each, listed here by name: a static provider, so the bundled services carry them.
 */
import { legacyVersions, relationsExist, type MigrationSet } from '@sinilill/event-store';
import * as idSequences from './0001-id-sequences';
import * as accountTables from './0002-account-tables';
import * as sessionTables from './0003-session-tables';
import * as streamIndex from './0004-stream-index';
import * as indexesPerEdition from './0005-indexes-per-edition';
import * as stravaConnections from './0006-strava-connections';
import * as sessionChangeNotify from './0007-session-change-notify';

/**
 * Schema `app`: the id sequences (ids.ts), the account tables and the session tables
 * (accounts/directory.ts), 0004, now empty (the event store's migrations own the indexes of
 * the deletions' look-up, stream-index.ts), and 0005, which keys team names and join codes by
 * edition, and 0006, the Strava connections and proposals (docs/decisions/0095), and 0007, the
 * triggers that NOTIFY session changes (docs/decisions/0100). Run it through the CLI's migrateToLatest, or
 * `runMigrations(pool, [accountMigrations])`.
 */
export const accountMigrations: MigrationSet = {
  name: 'accounts',
  schema: 'app',
  migrations: {
    '0001-id-sequences': idSequences,
    '0002-account-tables': accountTables,
    '0003-session-tables': sessionTables,
    '0004-stream-index': streamIndex,
    '0005-indexes-per-edition': indexesPerEdition,
    '0006-strava-connections': stravaConnections,
    '0007-session-change-notify': sessionChangeNotify,
  },
  // Before the sequences were made IF NOT EXISTS on every start (no record), the
  // tables were version 1 of app.account_migrations.
  async legacy(db) {
    const done: string[] = [];
    if (await relationsExist(db, ['app.team_ids', 'app.participant_ids', 'app.entry_ids'])) done.push('0001-id-sequences');
    if ((await legacyVersions(db, 'app.account_migrations')).includes(1)) done.push('0002-account-tables');
    return done;
  },
};
