/**
 * The edition aggregate (stream `edition-{year}`) as a decider: plan, change, open, close.
 * Only ADMIN and SYSTEM act on editions (FORBIDDEN otherwise). The data's rules are
 * validate.ts's; the other editions (for EDITION_DATES_OVERLAP) come in the command, read by the
 * caller from the other `edition-*` streams.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import { localDate } from '../dates';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { EditionEvent } from './events';
import type { Edition } from './types';
import { assertValidEdition } from './validate';

/** An edition's place in its life cycle: `planned` (a draft), `opened` (public), `closed` (archived). */
export type EditionStatus = 'planned' | 'opened' | 'closed';

export interface EditionState {
  exists: boolean;
  edition: Edition | null;
  status: EditionStatus;
}

type Others = readonly Pick<Edition, 'year' | 'registrationOpens' | 'lateEntriesUntil'>[];

export type EditionCommand =
  | { type: 'PlanEdition'; data: { edition: unknown; others: Others } }
  | { type: 'ChangeEdition'; data: { year: number; edition: unknown; others: Others } }
  | { type: 'OpenEdition'; data: { year: number } }
  | { type: 'CloseEdition'; data: { year: number } };

const initialEditionState = (): EditionState => ({ exists: false, edition: null, status: 'planned' });

/** Folds one edition event (pure). */
export function evolveEdition(state: EditionState, event: EditionEvent): EditionState {
  switch (event.type) {
    case 'EditionPlanned':
      return { exists: true, edition: event.data.edition, status: 'planned' };
    case 'EditionChanged':
      return { ...state, edition: event.data.edition };
    case 'EditionOpened':
      return { ...state, status: 'opened' };
    case 'EditionClosed':
      return { ...state, status: 'closed' };
  }
}

function assertAdmin(ctx: DecisionContext): void {
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN');
}

function existing(state: EditionState, year: number): Edition {
  if (!state.exists || !state.edition || state.edition.year !== year) throw new DomainError('NOT_FOUND', `edition ${year}`);
  return state.edition;
}

/**
 * The edition decider.
 *
 * - PlanEdition → [EditionPlanned]: valid data (validate.ts codes), no overlap with `others`
 *   (EDITION_DATES_OVERLAP), a year not planned yet (EDITION_EXISTS).
 * - ChangeEdition → [EditionChanged] (or [] when nothing changed): the same rules; the year
 *   cannot change (INVALID_REQUEST); a closed edition is read-only (EDITION_CLOSED).
 * - OpenEdition → [EditionOpened] ([] when open already); EDITION_CLOSED when closed.
 * - CloseEdition → [EditionClosed] ([] when closed already); only after the late-entry deadline
 *   (the local day of ctx.now after `lateEntriesUntil`: results are final, EDITION_NOT_FINISHED)
 *   and only an opened edition (EDITION_NOT_OPENED).
 * Unknown year → NOT_FOUND. The `detail` of a data code is the broken field's path (answered as
 * `field`); EDITION_EXISTS names `year`; the state codes (closed, not opened, not finished) name
 * no field: nothing in the data is wrong.
 */
export const editionDecider: Decider<EditionCommand, EditionEvent, EditionState> = {
  initialState: initialEditionState,
  decide: (command, state, ctx) => {
    assertAdmin(ctx);
    return match(command)
      .with({ type: 'PlanEdition' }, ({ data }): EditionEvent[] => {
        const edition = assertValidEdition(data.edition, data.others);
        if (state.exists) throw new DomainError('EDITION_EXISTS', 'year');
        return [{ type: 'EditionPlanned', data: { year: edition.year, edition, plannedAt: ctx.now } }];
      })
      .with({ type: 'ChangeEdition' }, ({ data }): EditionEvent[] => {
        const current = existing(state, data.year);
        if (state.status === 'closed') throw new DomainError('EDITION_CLOSED');
        const edition = assertValidEdition(data.edition, data.others);
        if (edition.year !== data.year) throw new DomainError('INVALID_REQUEST', 'year');
        if (JSON.stringify(edition) === JSON.stringify(current)) return [];
        return [{ type: 'EditionChanged', data: { year: data.year, edition, changedAt: ctx.now } }];
      })
      .with({ type: 'OpenEdition' }, ({ data }): EditionEvent[] => {
        existing(state, data.year);
        if (state.status === 'closed') throw new DomainError('EDITION_CLOSED');
        return state.status === 'opened' ? [] : [{ type: 'EditionOpened', data: { year: data.year, openedAt: ctx.now } }];
      })
      .with({ type: 'CloseEdition' }, ({ data }): EditionEvent[] => {
        const edition = existing(state, data.year);
        if (state.status === 'closed') return [];
        if (state.status !== 'opened') throw new DomainError('EDITION_NOT_OPENED');
        if (localDay(ctx.now, edition) <= edition.lateEntriesUntil) throw new DomainError('EDITION_NOT_FINISHED');
        return [{ type: 'EditionClosed', data: { year: data.year, closedAt: ctx.now } }];
      })
      .exhaustive();
  },
  evolve: evolveEdition,
};

function localDay(nowIso: string, edition: Edition): string {
  return localDate(nowIso, edition.timeZone);
}
