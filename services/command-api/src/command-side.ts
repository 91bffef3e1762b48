/**
 * The command side as production wires it, in one place: server.ts builds its services here, and
 * tests/int/round-trips.int.test.ts builds the same ones, so that what the test counts per
 * POST /api/entry is what a running command API does (docs/decisions/0100).
 *
 * - ids in blocks of 32 per sequence read (one round trip in 32 commands);
 * - the switches (SettingsCache), kept current by the entry commands' reads of the settings
 *   stream's tail in the same round trip as their streams;
 * - the moderation figures: a participant's other entries found in the command's own read (entry
 *   handlers' streamsOf), the team-day figures held warm in memory (TeamDayFigures over the read
 *   models), the read-model look-ups for edits, team fees and refunds;
 * - the deletions' stream index: the event store itself;
 * - the session check: a SessionCache around the AccountService, kept coherent by the LISTEN of
 *   sessionChangeListener (start it, or nothing is kept and every request asks PostgreSQL).
 */
import type pg from 'pg';
import { AccountService, CommandService, PostgresIdAllocator, SettingsCache, TeamDayFigures, type AccountDirectory, type CommandServiceDependencies } from '@sinilill/commands';
import { ReconnectingListener, type EventStore, type ListenerLog } from '@sinilill/event-store';
import { SESSION_CHANGES_CHANNEL, SessionCache, sessionListenerUrl } from '@sinilill/http';
import type { Mailer } from '@sinilill/mail';
import { readModelLookups, teamDayFiguresOn } from './read-model-lookups';

/** What the command side is built from. */
export interface CommandSideOptions {
  /** The event store's pool; the read models (schema `rm`) and the id sequences are in the same database. */
  pool: pg.Pool;
  /** The event store as the service wraps it (personal-data protection, after-commit hook, metrics). */
  store: EventStore;
  /** The account tables (on their own pool: see AccountDirectory). */
  directory: AccountDirectory;
  now: () => Date;
  mailer: Mailer;
  /** The site's address (links in mails). */
  publicUrl: string;
  /** A mail that could not be sent (logged by the service). */
  onMailError?: (error: unknown, kind: string) => void;
  /** Admin deletions destroy the person's key (the store's PersonalDataVault). */
  personalData?: CommandServiceDependencies['personalData'];
  /** Called once when the database has no session triggers (nothing is then kept; log it). */
  onUnnotifiedSessions?: () => void;
}

/** The command side's services (see the module's comment). */
export interface CommandSide {
  commands: CommandService;
  accounts: AccountService;
  /** buildCommandApi's `sessions`: the session check, kept in memory while its LISTEN is up. */
  sessions: SessionCache;
  ids: PostgresIdAllocator;
  settings: SettingsCache;
  teamDays: TeamDayFigures;
}

/** Builds the command side (nothing is read or connected yet). */
export function commandSide(options: CommandSideOptions): CommandSide {
  const { pool, store, directory, now } = options;
  const ids = new PostgresIdAllocator(pool, { block: 32 });
  const settings = new SettingsCache();
  const teamDays = new TeamDayFigures(teamDayFiguresOn(pool));
  const commands = new CommandService({
    store, ids, now, directory, settings, teamDays,
    ...(options.personalData ? { personalData: options.personalData } : {}),
    // Admin deletions find members and entries in the log itself (stream-index.ts), on either engine.
    streamIndex: store,
    ...readModelLookups(pool),
  });
  const accounts = new AccountService({
    store, ids, directory, mailer: options.mailer, now, publicUrl: options.publicUrl,
    ...(options.onMailError ? { onMailError: options.onMailError } : {}),
  });
  const sessions = new SessionCache(accounts, options.onUnnotifiedSessions ? { onUnnotified: options.onUnnotifiedSessions } : {});
  // A logout, a password change, a deletion answers once every listening process has dropped it.
  directory.waitForSessionChanges(sessions);
  return { commands, accounts, sessions, ids, settings, teamDays };
}

/**
 * The process's LISTEN on SESSION_CHANGES_CHANNEL for `sessions` (start() it once; close() at
 * shutdown). Reconnects by itself; while it is down nothing is kept.
 */
export function sessionChangeListener(connectionString: string, sessions: SessionCache, log?: ListenerLog): ReconnectingListener {
  return new ReconnectingListener({
    connectionString: sessionListenerUrl(connectionString), channel: SESSION_CHANGES_CHANNEL, name: 'session change listener', hooks: sessions.hooks, ...(log ? { log } : {}),
  });
}
