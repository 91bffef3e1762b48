/**
 * The editions the operators' tools write: the edition an import goes into (its data from the
 * export's `edition.json` or the seed, planned and opened as events before the rows), and the
 * launcher's demo (the imported editions closed, the next one planned and opened).
 *
 * Every edition command here acts as SYSTEM through the CommandService (edition/handlers.ts), so
 * the decider's rules and codes are the admin console's; command ids are derived from the year
 * (`import:<year>:edition:plan`, `demo:<year>:edition:close`, …), so a repeated run appends nothing.
 * Each command's instant is chosen to fit the edition's life cycle (docs/decisions/0085): planning
 * and opening before its registration opens, closing after its late-entry deadline.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandService } from '@sinilill/commands';
import { DomainError, assertValidEdition, type ActingUser, type Edition } from '@sinilill/domain';
import { EDITION_OF_EVENTS_BEFORE_EDITIONS, seedEditions } from '@sinilill/domain/seed';
import type { EventStore } from '@sinilill/event-store';

const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };

/**
 * Codes of an import refused before it wrote a row (besides the domain's EDITION_* codes of an
 * invalid `edition.json`, which keep their own code and field):
 * - IMPORT_YEAR_UNKNOWN: no year given and the export does not say (edition.json, route.json);
 * - IMPORT_YEAR_MISMATCH: the year given is not the year of the export's edition.json;
 * - IMPORT_EDITION_UNKNOWN: neither an edition.json nor a seed edition for the year;
 * - IMPORT_EDITION_HAS_TEAMS: the edition has teams registered other than by an import;
 * - EDITION_CLOSED: the edition is archived (read-only).
 */
export type ImportRefusalCode =
  | 'IMPORT_YEAR_UNKNOWN' | 'IMPORT_YEAR_MISMATCH' | 'IMPORT_EDITION_UNKNOWN' | 'IMPORT_EDITION_HAS_TEAMS' | 'EDITION_CLOSED'
  | 'EDITION_INVALID' | 'EDITION_DATES_INVALID' | 'EDITION_DATES_OVERLAP' | 'EDITION_ROUTE_INVALID' | 'EDITION_FEE_INVALID'
  | 'EDITION_MISSION_NAME_MISSING' | 'EDITION_EXISTS';

/** An import refused before any row: `code` (ImportRefusalCode), `field` the data's path when the edition data is at fault. */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused';
  constructor(readonly code: ImportRefusalCode, explanation: string, readonly field?: string) {
    super(`import refused: ${code}${field ? ` (${field})` : ''}: ${explanation}`);
  }
}

/** The file of an export that carries its edition's whole data (Edition JSON, as the admin API takes it). */
export const EDITION_FILE = 'edition.json';

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new ImportRefused('EDITION_INVALID', `${file} is not JSON: ${(error as Error).message}`);
  }
}

function yearIn(value: unknown, key: string): number | null {
  const year = (value as Record<string, unknown> | null)?.[key];
  return typeof year === 'number' && Number.isInteger(year) ? year : null;
}

/**
 * The year an export says it is of: its edition.json's `year`, else its route.json's `edition`
 * (the 2025 export's route says 2025); null when it says nothing.
 * @throws ImportRefused EDITION_INVALID when edition.json is not JSON.
 */
export function exportYear(dir: string): number | null {
  const editionFile = join(dir, EDITION_FILE);
  if (existsSync(editionFile)) return yearIn(readJson(editionFile), 'year');
  const routeFile = join(dir, 'route.json');
  if (existsSync(routeFile)) {
    try {
      return yearIn(JSON.parse(readFileSync(routeFile, 'utf8')), 'edition');
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The year to import `dir` into: `given` (the `--year` flag) when given, else what the export says.
 * @throws ImportRefused IMPORT_YEAR_UNKNOWN when neither says; IMPORT_YEAR_MISMATCH when the
 *   export's edition.json is of another year than `given`.
 */
export function importYear(dir: string, given: number | null): number {
  const said = exportYear(dir);
  if (given !== null) {
    if (existsSync(join(dir, EDITION_FILE)) && said !== null && said !== given) {
      throw new ImportRefused('IMPORT_YEAR_MISMATCH', `${join(dir, EDITION_FILE)} is the edition of ${said}, not of ${given}`, 'year');
    }
    return given;
  }
  if (said === null) throw new ImportRefused('IMPORT_YEAR_UNKNOWN', `the export in ${dir} does not say its year: give it (--year <year>)`);
  return said;
}

/**
 * The edition data an import of `dir` into `year` plans: the export's edition.json (a route given
 * apart in route.json is used when edition.json has none), validated as the admin console's data
 * is; else the seed edition of the year.
 * @throws ImportRefused with the domain's code and field (EDITION_INVALID, EDITION_DATES_INVALID,
 *   EDITION_ROUTE_INVALID, EDITION_FEE_INVALID, EDITION_MISSION_NAME_MISSING, …) for invalid data;
 *   IMPORT_YEAR_MISMATCH when edition.json is of another year; IMPORT_EDITION_UNKNOWN when there
 *   is neither an edition.json nor a seed edition of the year.
 */
export function editionDataFor(dir: string, year: number): Edition {
  const editionFile = join(dir, EDITION_FILE);
  if (!existsSync(editionFile)) {
    const seed = seedEditions.get(year);
    if (!seed) throw new ImportRefused('IMPORT_EDITION_UNKNOWN', `no ${EDITION_FILE} in ${dir} and no seed edition of ${year}: put the edition's data in ${editionFile}`);
    return seed;
  }
  const data = readJson(editionFile) as Record<string, unknown> | null;
  const routeFile = join(dir, 'route.json');
  const withRoute = data && typeof data === 'object' && data.route === undefined && existsSync(routeFile)
    ? { ...data, route: routeOf(readJson(routeFile)) }
    : data;
  let edition: Edition;
  try {
    edition = assertValidEdition(withRoute, []);
  } catch (error) {
    if (error instanceof DomainError) throw new ImportRefused(error.code as ImportRefusalCode, `${editionFile} is not a valid edition`, error.detail);
    throw error;
  }
  if (edition.year !== year) throw new ImportRefused('IMPORT_YEAR_MISMATCH', `${editionFile} is the edition of ${edition.year}, not of ${year}`, 'year');
  return edition;
}

/** The route part of an export's route.json (its other keys are notes). */
function routeOf(value: unknown): unknown {
  const route = value as { lapLength?: unknown; missions?: unknown } | null;
  return route && typeof route === 'object' ? { lapLength: route.lapLength, missions: route.missions } : value;
}

/** The day before `date` (YYYY-MM-DD) at 12:00 UTC: before that local day begins anywhere in Europe. */
function dayBefore(date: string): Date {
  return new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000);
}

/** The day after `date` (YYYY-MM-DD) at 12:00 UTC: a local day after it in Europe. */
function dayAfter(date: string): Date {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000);
}

/** A SYSTEM request at `now`; an import's edition commands (`import:…`) are marked imported, as its rows are. */
function systemRequest(commandId: string, now: Date) {
  const metadata = {
    commandId, correlationId: commandId.slice(0, commandId.lastIndexOf(':edition')), causationId: null,
    ...(commandId.startsWith('import:') ? { imported: true } : {}),
  };
  return { actor: SYSTEM, metadata, now };
}

/**
 * Plans (unless the log has it) and opens (unless open) the edition `edition.year`, as SYSTEM at
 * the day before its registration opens, with command ids `<prefix>:edition:plan|open`.
 * With `store`: when the log has no edition event yet but has teams (written before editions were
 * data), their edition (EDITION_OF_EVENTS_BEFORE_EDITIONS) is planned and opened first, so that
 * another year's edition does not take it out of the catalogue.
 * @returns the edition as the log has it (the recorded data wins over `edition` when the year was
 *   planned already, e.g. by an administrator) and the highest position written (0: nothing).
 * @throws ImportRefused EDITION_CLOSED; the edition commands' DomainErrors (EDITION_DATES_OVERLAP, …).
 */
export async function ensureEditionOpen(
  target: { store?: EventStore; commands: CommandService },
  edition: Edition,
  prefix: string,
): Promise<{ edition: Edition; position: number }> {
  const { store, commands } = target;
  let position = 0;
  const before = EDITION_OF_EVENTS_BEFORE_EDITIONS;
  if (store && edition.year !== before.year && (await store.countEvents({ category: 'edition' })) === 0
    && (await store.countEvents({ category: 'team', types: ['TeamRegistered'] })) > 0) {
    position = (await ensureEditionOpen(target, before, `import:${before.year}`)).position;
  }
  const known = (await commands.editions()).get(edition.year);
  if (known?.status === 'closed') throw new ImportRefused('EDITION_CLOSED', `the edition of ${edition.year} is closed (archived, read-only)`);
  const at = dayBefore((known?.edition ?? edition).registrationOpens);
  try {
    position = Math.max(position, (await commands.planEdition(edition, systemRequest(`${prefix}:edition:plan`, at))).position);
  } catch (error) {
    // Planned already (by an administrator, or by a first run whose open did not follow): opened below as it is.
    if (!(error instanceof DomainError && error.code === 'EDITION_EXISTS')) throw error;
  }
  const opened = await commands.openEdition(edition.year, systemRequest(`${prefix}:edition:open`, at));
  return { edition: opened.record.edition, position: Math.max(position, opened.position) };
}

/**
 * Refuses an import into `year` when the edition already has teams that no import registered
 * (through the site or the admin console: events without the `imported` mark). An export
 * imported over them would mix the old system's data with the new one's; a repeated or
 * interrupted run of an import, or a synthetic edition beside an export, continues.
 * @throws ImportRefused IMPORT_EDITION_HAS_TEAMS naming how many.
 */
export async function refuseIfEditionHasOtherTeams(store: EventStore, year: number): Promise<void> {
  const registered = await store.readEvents({ category: 'team', types: ['TeamRegistered'] });
  const others = registered.filter((event) => (event.data as { edition?: number }).edition === year
    && (event.metadata as { imported?: unknown } | undefined)?.imported !== true);
  if (others.length > 0) {
    throw new ImportRefused('IMPORT_EDITION_HAS_TEAMS', `the edition of ${year} has ${others.length} team(s) registered already, not by an import: an export is imported only into an edition without such teams`);
  }
}

/** What the demo did (demoNextEdition). */
export interface DemoResult {
  /** The editions it closed, oldest first. */
  closed: number[];
  /** The year of the edition it planned and opened (or found planned and opened by an earlier run). */
  opened: number;
}

/**
 * The launcher's demo of a year between editions (DEMO_NEXT_EDITION): every opened edition
 * before `year` is closed (SYSTEM, the day after its late-entry deadline), then the seed edition
 * of `year` is planned and opened (the day before its registration opens). Command ids
 * `demo:<year>:edition:close|plan|open`: a second run appends nothing.
 * @throws ImportRefused IMPORT_EDITION_UNKNOWN when there is no seed edition of `year`; the edition
 *   commands' DomainErrors.
 */
export async function demoNextEdition(target: { store: EventStore; commands: CommandService }, year: number): Promise<DemoResult> {
  const next = seedEditions.get(year);
  if (!next) throw new ImportRefused('IMPORT_EDITION_UNKNOWN', `no seed edition of ${year} for the demo (DEMO_NEXT_EDITION)`);
  const closed: number[] = [];
  for (const record of (await target.commands.editions()).list()) {
    if (record.edition.year >= year || record.status !== 'opened') continue;
    // A log from before editions has its edition only as the catalogue's assumption: record it first.
    await ensureEditionOpen(target, record.edition, `import:${record.edition.year}`);
    await target.commands.closeEdition(record.edition.year,
      systemRequest(`demo:${record.edition.year}:edition:close`, dayAfter(record.edition.lateEntriesUntil)));
    closed.push(record.edition.year);
  }
  await ensureEditionOpen(target, next, `demo:${year}`);
  return { closed, opened: year };
}
