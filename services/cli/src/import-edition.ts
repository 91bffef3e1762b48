/**
 * Imports an export of the old system (an edition's teams.csv, participants.csv and
 * entries.csv; fixture README) as events, into its edition.
 *
 * The edition comes first (prepareImportEdition): its data is the export's `edition.json` when
 * there is one (checked by the domain's assertValidEdition: the EDITION_* codes), else the seed
 * edition of the year (`seedEditions`); it is planned and opened as events (EditionPlanned,
 * EditionOpened in `edition-{year}`, actor SYSTEM, at an instant before its registration opens),
 * unless the log has it already. A closed edition, or one with teams registered other than by
 * an import, is refused (ImportRefused). Every team, participant and entry is then decided
 * under that edition, so TeamRegistered and ParticipantRegistered carry its year.
 *
 * Two paths, the same commands and the same events:
 *
 * - **bulk** (given `store`, and `directory` with `pool` for accounts):
 *   @sinilill/commands' BulkImporter decides every command in memory with the same deciders and
 *   appends thousands of events per appendToStreams call (the 2025 export in about a second). `npm run import` and `npm start`
 *   use it; so does the synthetic edition (synthetic-edition.ts).
 * - **command by command** (given only `commands`): each row through the CommandService, as the
 *   API handles a request, `concurrency` in flight (~20 s for the 2025 export). Kept for callers
 *   that hold only a CommandService (tests that watch a slow import, the benchmark).
 *
 * On both:
 * - The actor is SYSTEM, the metadata says `imported`, and each command's time is the row's
 *   original created_at, so events carry the old system's times.
 * - Command ids are derived from the export's ids (`import:<edition>:<kind>:<id>`: team,
 *   participant (its account `…:account`), participant-paid, entry), so a second run finds every
 *   command handled already and appends nothing.
 * - Text is imported as written: quotes, emoji, markup-like text and Estonian letters are data.
 * - Imported people have no password (they set one through forgot-password).
 * - The old system kept paid flags, not amounts: a paid mark becomes a fee assumed paid
 *   (ParticipantPaymentMarked source 'import', `assumedCents`: the company fee when the export
 *   says the team is one, else 15/5 EUR by birth year, spec §9), or a payment of unknown amount
 *   when the birth year is missing; `assumedFees` in the result says what was assumed.
 * - The id sequences are moved past the imported ids after each phase.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { parse } from 'csv-parse/sync';
import {
  BulkImporter,
  CommandService,
  readEditionCatalog,
  type AccountDirectory,
  type BulkCommand,
  type BulkTimings,
  type IdAllocator,
} from '@sinilill/commands';
import { participantFee, type ActingUser, type Edition, type Gender } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { editionDataFor, ensureEditionOpen, refuseIfEditionHasOtherTeams } from './edition-setup';

/**
 * A teams.csv row (strings as in the file; created_at ISO-8601). `company` 'true' / 'false' when
 * the export has the column (the 2025 export does not: no team is a company team).
 */
export interface TeamRow { id: string; team_name: string; description: string; join_code: string; created_at: string; company?: string }
/** A participants.csv row; is_paid and is_captain 'true' / 'false'. */
export interface ParticipantRow {
  id: string; full_name: string; email: string; gender: string; birth_year: string; team_id: string;
  is_paid: string; is_captain: string; created_at: string;
}
/** An entries.csv row: distance in km, performed_at YYYY-MM-DD, created_at ISO-8601. */
export interface EntryRow {
  id: string; team_id: string; participant_id: string; distance: string; entry_type: string;
  performed_at: string; created_at: string;
}

/** An edition's rows, in import order. Entries may be produced lazily (the synthetic edition). */
export interface EditionRows {
  teams: readonly TeamRow[];
  participants: readonly ParticipantRow[];
  entries: Iterable<EntryRow>;
  /** How many entries `entries` yields (the progress bar's total). */
  entryCount: number;
  /** The largest entry id (the entry sequence is moved past it); 0 when none. */
  maxEntryId: number;
}

export interface ImportProgress {
  phase: 'teams' | 'participants' | 'entries';
  done: number;
  total: number;
}

export interface ImportResult {
  teams: number;
  participants: number;
  entries: number;
  /** The highest global position the import's commands reached (of the first run, on a repeat). */
  position: number;
  milliseconds: number;
  /** Bulk path only: events appended for the rows by this run (0 on a repeat; the edition's own events not counted). */
  events?: number;
  /** Bulk path only: where the time went. */
  timings?: BulkTimings;
  /** What the import assumed of the paid marks (see assumedFees). */
  assumedFees: AssumedFees;
  /** The year of the edition the rows were imported into. */
  edition: number;
}

/** The fees an import assumes were paid in the old system, which kept paid flags but no amounts. */
export interface AssumedFees {
  /** Paid marks whose fee is known from the export (birth year, company team). */
  known: number;
  /** Their sum, EUR cents. */
  knownCents: number;
  /** Paid marks whose fee cannot be known (no birth year): amount unknown. */
  unknown: number;
}

/** A participant row's birth year, or null when the export has none (or not a year). */
function birthYearOf(row: ParticipantRow): number | null {
  const year = Number(row.birth_year);
  return row.birth_year.trim() !== '' && Number.isInteger(year) && year > 0 ? year : null;
}

/**
 * What importing `rows` assumes of their paid marks, by the same rule as the participant decider
 * (participantFee for `edition`: the company fee in a team the export calls a company, else 15/5
 * EUR by birth year; spec §9).
 */
export function assumedFees(rows: Pick<EditionRows, 'teams' | 'participants'>, edition: Edition): AssumedFees {
  const companies = new Set(rows.teams.filter((team) => team.company === 'true').map((team) => team.id));
  const result: AssumedFees = { known: 0, knownCents: 0, unknown: 0 };
  for (const row of rows.participants) {
    if (row.is_paid !== 'true') continue;
    const birthYear = birthYearOf(row);
    if (birthYear === null) result.unknown += 1;
    else {
      result.known += 1;
      result.knownCents += participantFee(birthYear, companies.has(row.team_id), edition);
    }
  }
  return result;
}

/** One line for an operator: what the import assumed of the paid marks. */
export function describeAssumedFees(fees: AssumedFees): string {
  const euros = (fees.knownCents / 100).toFixed(2);
  return `paid marks: ${fees.known} assumed as fees paid in the old system (${euros} EUR by the edition's fee rules)` +
    (fees.unknown > 0 ? `, ${fees.unknown} of unknown amount (no birth year): money raised is shown as at least ${euros} EUR` : '');
}

/** The callbacks and ids both paths share. */
interface ImportCallbacks {
  ids: IdAllocator;
  onProgress?: (progress: ImportProgress) => void;
  /** Called after each phase with the highest position so far (wake the projectors). */
  onPhaseDone?: (position: number) => Promise<void> | void;
}

/** What the bulk path needs (see BulkImporterOptions). */
export interface BulkImportTarget {
  /** The event store (with personal-data protection, as the app's). */
  store: EventStore;
  /** With it: account-table rows and an account per participant (as a CommandService with a directory). */
  directory?: AccountDirectory;
  /** The database of the store and the account tables: required with `directory`; speeds up reading the touched streams. */
  pool?: pg.Pool;
  /** Events per append (default 5 000). */
  batchEvents?: number;
}

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

function readCsv<T>(dir: string, file: string): T[] {
  return parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as T[];
}

/** Reads an edition's three CSVs from `dir`. @throws when a file is missing or malformed. */
export function readEditionCsv(dir: string): EditionRows {
  const entries = readCsv<EntryRow>(dir, 'entries.csv');
  return {
    teams: readCsv<TeamRow>(dir, 'teams.csv'),
    participants: readCsv<ParticipantRow>(dir, 'participants.csv'),
    entries,
    entryCount: entries.length,
    maxEntryId: entries.reduce((max, entry) => Math.max(max, Number(entry.id)), 0),
  };
}

/**
 * Imports the export in `dir` into the edition of `edition` (a year): first the edition
 * (edition-setup.ts: the export's edition.json or the seed edition of the year, planned and opened
 * unless the log has it), then the rows in bulk when `store` is given (with `directory` and
 * `pool`: accounts and account-table rows too), else command by command through `commands` (see
 * the module's comment).
 * @throws ImportRefused (edition-setup.ts) before any row: invalid edition.json (its EDITION_*
 *   code and field), IMPORT_EDITION_UNKNOWN, IMPORT_YEAR_MISMATCH, EDITION_CLOSED,
 *   IMPORT_EDITION_HAS_TEAMS (bulk path: the edition has teams no import registered).
 *   Error "import stopped at <row>: <message>" (cause: the DomainError) when a row breaks a
 *   rule; rows before it stay imported and a re-run continues where it stopped. TypeError when
 *   neither `store` nor `commands` is given, or `directory` without `pool`.
 */
export async function importEdition(options: ImportCallbacks & Partial<BulkImportTarget> & {
  dir: string;
  edition: number;
  commands?: CommandService;
  /** Command-by-command path: commands in flight (default 8). */
  concurrency?: number;
}): Promise<ImportResult> {
  const { store } = options;
  if (!store && !options.commands) throw new TypeError('importEdition: give store (bulk) or commands');
  const rows = readEditionCsv(options.dir);
  const data = editionDataFor(options.dir, options.edition);
  const prefix = `import:${options.edition}`;
  if (store) await refuseIfEditionHasOtherTeams(store, options.edition);
  // The edition commands need only the log and ids: a bulk import without a CommandService gets one on its store.
  const commands = options.commands ?? new CommandService({ store: store!, ids: options.ids, now: () => new Date() });
  const { edition } = await ensureEditionOpen({ commands, ...(store ? { store } : {}) }, data, prefix);
  if (store) return importRows(rows, { ...options, store, label: String(options.edition), edition });
  return importCommandByCommand(rows, { ...options, commands, edition });
}

/** The bulk commands of a team row. */
function teamCommand(prefix: string, row: TeamRow, index: number): BulkCommand {
  return {
    type: 'RegisterTeam', label: `team ${row.id}`, commandId: `${prefix}:team:${row.id}`, at: row.created_at, row: index + 1,
    data: {
      teamId: Number(row.id), teamName: row.team_name, description: row.description, joinCode: row.join_code, icon: null,
      ...(row.company === 'true' ? { company: true } : {}),
    },
  };
}

/** The bulk commands of a participant row: registration (+ account) and, when paid, the paid flag. */
function* participantCommands(prefix: string, rows: readonly ParticipantRow[], companies: ReadonlySet<string>): Generator<BulkCommand> {
  for (const [index, row] of rows.entries()) {
    const participantId = Number(row.id);
    yield {
      type: 'RegisterParticipant', label: `participant ${row.id}`, commandId: `${prefix}:participant:${row.id}`, at: row.created_at, row: index + 1,
      data: {
        participantId, teamId: Number(row.team_id), fullName: row.full_name, email: row.email,
        birthYear: Number(row.birth_year), gender: row.gender as Gender, isCaptain: row.is_captain === 'true', newsletter: false,
      },
    };
    if (row.is_paid === 'true') {
      yield {
        type: 'MarkPayment', label: `payment of participant ${row.id}`, commandId: `${prefix}:participant-paid:${row.id}`,
        at: row.created_at, row: index + 1, data: { participantId, isPaid: true, ...(companies.has(row.team_id) ? { company: true } : {}) },
      };
    }
  }
}

/** The bulk commands of the entry rows. */
function* entryCommands(prefix: string, rows: Iterable<EntryRow>): Generator<BulkCommand> {
  let index = 0;
  for (const row of rows) {
    yield {
      type: 'AddEntry', label: `entry ${row.id}`, commandId: `${prefix}:entry:${row.id}`, at: row.created_at, row: ++index,
      data: {
        entryId: Number(row.id), participantId: Number(row.participant_id), distance: Number(row.distance),
        entryType: row.entry_type, performedAt: row.performed_at,
      },
    };
  }
}

/**
 * Imports `rows` in bulk: teams, participants (with accounts when a directory is
 * given, and paid flags), entries, each phase through one BulkImporter (which keeps every touched
 * stream's state), with command ids `import:<label>:…`, moving the id sequences past the imported
 * ids after each phase.
 * @param options.label the edition part of the command ids and the correlation id
 *   (`import:<label>`): the year for an export, e.g. `synthetic-1` for a synthetic edition.
 * @param options.edition the edition the rows belong to (its rules decide them; their events
 *   carry its year); default the log's latest edition (latestEdition). Not planned here:
 *   importEdition plans and opens an export's edition first.
 * @returns counts, the highest position, the time (ms), the events appended and the breakdown.
 * @throws Error "import stopped at <row>: <message>" (BulkImportStopped) at the first refused row.
 */
export async function importRows(rows: EditionRows, options: ImportCallbacks & BulkImportTarget & { label: string; edition?: Edition }): Promise<ImportResult> {
  const started = performance.now();
  const prefix = `import:${options.label}`;
  const edition = options.edition ?? await latestEdition(options.store);
  const importer = new BulkImporter({
    store: options.store, correlationId: prefix, edition,
    ...(options.directory ? { directory: options.directory } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.batchEvents ? { batchEvents: options.batchEvents } : {}),
  });
  const { teams, participants } = rows;
  let position = 0;
  let events = 0;
  const phase = async (name: ImportProgress['phase'], total: number, commands: Iterable<BulkCommand>) => {
    let reported = -1;
    const report = (done: number) => {
      reported = done;
      options.onProgress?.({ phase: name, done, total });
    };
    const result = await importer.run(commands, report);
    position = Math.max(position, result.position);
    events += result.events;
    if (reported !== total) report(total);
  };

  await phase('teams', teams.length, teams.map((row, index) => teamCommand(prefix, row, index)));
  await options.ids.reserveThrough('team', maxId(teams));
  await options.onPhaseDone?.(position);

  const companies = new Set(teams.filter((team) => team.company === 'true').map((team) => team.id));
  await phase('participants', participants.length, participantCommands(prefix, participants, companies));
  await options.ids.reserveThrough('participant', maxId(participants));
  await options.onPhaseDone?.(position);

  await phase('entries', rows.entryCount, entryCommands(prefix, rows.entries));
  await options.ids.reserveThrough('entry', rows.maxEntryId);
  await options.onPhaseDone?.(position);

  return {
    teams: teams.length, participants: participants.length, entries: rows.entryCount,
    position, milliseconds: performance.now() - started, events, timings: { ...importer.timings },
    assumedFees: assumedFees(rows, edition), edition: edition.year,
  };
}

/**
 * The edition rows go into when the caller names none (a synthetic edition): the log's latest
 * (EditionCatalog.latest; on a log without edition events the one its events belong to, 2025).
 * @throws Error when the log has no edition at all.
 */
async function latestEdition(store: EventStore): Promise<Edition> {
  const record = (await readEditionCatalog(store)).latest(new Date().toISOString());
  if (!record) throw new Error('import: the log has no edition to import into');
  return record.edition;
}

function maxId(rows: readonly { id: string }[]): number {
  return rows.reduce((max, row) => Math.max(max, Number(row.id)), 0);
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(runners);
}

/** The command-by-command path: each row through the CommandService, `concurrency` in flight. */
async function importCommandByCommand(rows: EditionRows, options: ImportCallbacks & {
  edition: Edition;
  commands: CommandService;
  concurrency?: number;
}): Promise<ImportResult> {
  const started = performance.now();
  const { commands } = options;
  const concurrency = options.concurrency ?? 8;
  const { teams, participants } = rows;
  const entries = [...rows.entries];
  const prefix = `import:${options.edition.year}`;
  let position = 0;
  const track = (result: { position: number }) => {
    position = Math.max(position, result.position);
  };
  const request = (commandId: string, now: string) => ({
    actor: SYSTEM,
    metadata: { commandId, correlationId: `${prefix}`, causationId: null, imported: true },
    now: new Date(now),
  });
  const fail = (what: string, error: unknown): never => {
    throw Object.assign(new Error(`import stopped at ${what}: ${(error as Error).message}`), { cause: error });
  };

  let done = 0;
  await inParallel(teams, concurrency, async (row) => {
    const result = await commands.registerTeam(
      {
        teamId: Number(row.id), teamName: row.team_name, description: row.description, joinCode: row.join_code, icon: null,
        ...(row.company === 'true' ? { company: true } : {}),
      },
      request(`${prefix}:team:${row.id}`, row.created_at),
    ).catch((error: unknown) => fail(`team ${row.id}`, error));
    track(result);
    options.onProgress?.({ phase: 'teams', done: ++done, total: teams.length });
  });
  await options.ids.reserveThrough('team', maxId(teams));
  await options.onPhaseDone?.(position);

  done = 0;
  await inParallel(participants, concurrency, async (row) => {
    const id = Number(row.id);
    const registered = await commands.registerParticipant({
      participantId: id, teamId: Number(row.team_id), fullName: row.full_name, email: row.email,
      birthYear: Number(row.birth_year), gender: row.gender as Gender, isCaptain: row.is_captain === 'true',
      newsletter: false,
    }, request(`${prefix}:participant:${row.id}`, row.created_at))
      .catch((error: unknown) => fail(`participant ${row.id}`, error));
    track(registered);
    if (row.is_paid === 'true') {
      const paid = await commands.markPayment(id, true, request(`${prefix}:participant-paid:${row.id}`, row.created_at))
        .catch((error: unknown) => fail(`payment of participant ${row.id}`, error));
      track(paid);
    }
    options.onProgress?.({ phase: 'participants', done: ++done, total: participants.length });
  });
  await options.ids.reserveThrough('participant', maxId(participants));
  await options.onPhaseDone?.(position);

  done = 0;
  await inParallel(entries, concurrency, async (row) => {
    const result = await commands.addEntry({
      entryId: Number(row.id), participantId: Number(row.participant_id), distance: Number(row.distance),
      entryType: row.entry_type, performedAt: row.performed_at,
    }, request(`${prefix}:entry:${row.id}`, row.created_at))
      .catch((error: unknown) => fail(`entry ${row.id}`, error));
    track(result);
    options.onProgress?.({ phase: 'entries', done: ++done, total: entries.length });
  });
  await options.ids.reserveThrough('entry', rows.maxEntryId);
  await options.onPhaseDone?.(position);

  return {
    teams: teams.length, participants: participants.length, entries: entries.length,
    position, milliseconds: performance.now() - started, assumedFees: assumedFees(rows, options.edition), edition: options.edition.year,
  };
}
