/**
 * The edition commands (admin console, `npm run import`): plan an edition from its data, change
 * it, open it to the public, close it once its results are final. Each writes the edition's
 * own stream `edition-{year}`; the overlap rule reads the other editions from the catalogue.
 */
import { editionDecider, streams, type EditionRecord } from '@sinilill/domain';
import { handleCommand } from '../execute-command';
import type { CommandRequest } from '../metadata';
import { decisionContext, editionSourceOf, type CommandServiceDependencies } from '../context';

async function othersThan(deps: CommandServiceDependencies, year: number | null) {
  const catalog = await editionSourceOf(deps).catalog();
  return catalog.list().filter((r) => r.edition.year !== year).map((r) => r.edition);
}

async function run(deps: CommandServiceDependencies, year: number, command: Parameters<typeof editionDecider.decide>[0], request: CommandRequest): Promise<{ position: number; record: EditionRecord }> {
  const source = editionSourceOf(deps);
  const result = await handleCommand(deps.store, streams.edition(year), editionDecider, command, await decisionContext(deps, request), request.metadata);
  source.invalidate();
  const record = (await source.catalog()).get(year);
  if (!record) throw new Error(`edition ${year} is not in the catalogue after its command`);
  return { position: result.position, record };
}

function yearOf(data: unknown): number {
  const year = (data as { year?: unknown } | null)?.year;
  return typeof year === 'number' && Number.isInteger(year) ? year : Number.NaN;
}

/**
 * Plans a new edition from its whole data (Edition; the console's form or an uploaded JSON).
 * @throws DomainError FORBIDDEN, EDITION_INVALID, EDITION_DATES_INVALID, EDITION_DATES_OVERLAP,
 *   EDITION_ROUTE_INVALID, EDITION_FEE_INVALID, EDITION_MISSION_NAME_MISSING, EDITION_EXISTS.
 */
export async function planEdition(deps: CommandServiceDependencies, edition: unknown, request: CommandRequest) {
  const year = yearOf(edition);
  const others = await othersThan(deps, Number.isNaN(year) ? null : year);
  // A year that is not a number is refused by the decider's validation (EDITION_INVALID); the stream needs a name.
  return run(deps, Number.isNaN(year) ? 0 : year, { type: 'PlanEdition', data: { edition, others } }, request);
}

/** Replaces an edition's data (not once closed). @throws as planEdition, NOT_FOUND, EDITION_CLOSED. */
export async function changeEdition(deps: CommandServiceDependencies, year: number, edition: unknown, request: CommandRequest) {
  const others = await othersThan(deps, year);
  return run(deps, year, { type: 'ChangeEdition', data: { year, edition, others } }, request);
}

/** Announces an edition (its registration opens on its date). @throws NOT_FOUND, EDITION_CLOSED. */
export async function openEdition(deps: CommandServiceDependencies, year: number, request: CommandRequest) {
  return run(deps, year, { type: 'OpenEdition', data: { year } }, request);
}

/** Closes an edition after its late-entry deadline. @throws NOT_FOUND, EDITION_NOT_OPENED, EDITION_NOT_FINISHED. */
export async function closeEdition(deps: CommandServiceDependencies, year: number, request: CommandRequest) {
  return run(deps, year, { type: 'CloseEdition', data: { year } }, request);
}
