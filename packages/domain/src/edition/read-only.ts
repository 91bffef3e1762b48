/**
 * What may still change in an edition once another one runs or once it is closed (spec §4
 * "Entries can be added until the late-entry deadline", the archive of closed editions). A team,
 * a participant, an entry and a payment belong to one edition (the team's); these rules pick that
 * edition from the catalogue for the decision, so its dates, fees and limits are the ones checked,
 * and refuse what would change a finished one. Pure: the caller passes the catalogue and the year.
 */
import { isPrivileged } from '../actors';
import type { DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { EditionCatalog } from './catalog';
import type { Edition } from './types';

/**
 * The edition an entry of a participant or team of edition `year` is decided under (its dates,
 * late-entry deadline and moderation rules).
 *
 * - a closed edition is read-only for everyone, administrators included: ENTRY_DEADLINE_PASSED;
 * - a participant (USER) logs distances only for the current edition (EditionCatalog.current at
 *   `ctx.now`): ENTRY_DEADLINE_PASSED for a team of another edition, even one whose own window
 *   would still be open, since the site shows and counts the current edition only;
 * - ADMIN and SYSTEM may still correct an earlier edition that is not closed (the deadline does
 *   not bind them, spec §4), under that edition's own rules.
 * `year` null (an unknown participant or team): the context's edition, the decider answers NOT_FOUND.
 */
export function editionForEntries(catalog: EditionCatalog, year: number | null, ctx: DecisionContext): Edition | undefined {
  if (year === null) return ctx.edition;
  const record = catalog.get(year);
  if (!record || record.status === 'closed') throw new DomainError('ENTRY_DEADLINE_PASSED', `edition ${year} is closed`);
  if (!isPrivileged(ctx.actor) && catalog.current(ctx.now)?.edition.year !== year) {
    throw new DomainError('ENTRY_DEADLINE_PASSED', `edition ${year} is not the current edition`);
  }
  return record.edition;
}

/**
 * The edition a change of a team or participant of edition `year` (its public attributes, its
 * join code, a payment or paid flag) is decided under: that edition's limits and fees.
 * @throws DomainError EDITION_CLOSED when the edition is closed (read-only, archived).
 * `year` null (unknown team or participant): the context's edition, the decider answers NOT_FOUND.
 */
export function editionForChanges(catalog: EditionCatalog, year: number | null, ctx: DecisionContext): Edition | undefined {
  if (year === null) return ctx.edition;
  const record = catalog.get(year);
  if (record?.status === 'closed') throw new DomainError('EDITION_CLOSED');
  return record?.edition ?? ctx.edition;
}

/** `ctx` deciding under `edition` (unchanged when there is none). */
export function withEdition(ctx: DecisionContext, edition: Edition | undefined): DecisionContext {
  return edition ? { ...ctx, edition } : ctx;
}
