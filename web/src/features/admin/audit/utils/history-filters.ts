/**
 * The history tab's filter form as plain values, their checks, and the query of
 * GET /api/admin/history and …/export they become (contracts/history.ts HistoryFilterProperties).
 * Form names (the browser tests' hooks) differ from the query's names: entityType → entity,
 * teamId → team, participantId → participant, eventType → type; from/to are datetime-local
 * values in Europe/Tallinn, sent as ISO-8601 UTC instants.
 */
import type { HistoryEntity, HistoryExportQuery, HistoryQuery } from '@sinilill/contracts';
import { localInputToIso } from './tallinn-time';

/** The form's fields, in their order on screen; also the inputs' `name` attributes. */
export const FILTER_FIELDS = ['stream', 'entityType', 'teamId', 'participantId', 'eventType', 'actor', 'from', 'to'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** What the admin typed, as typed (datetime-local values for from/to). */
export type HistoryFilterValues = Record<FilterField, string>;

export const EMPTY_FILTERS: HistoryFilterValues = {
  stream: '',
  entityType: '',
  teamId: '',
  participantId: '',
  eventType: '',
  actor: '',
  from: '',
  to: '',
};

/** The entity kinds of the `entity` filter, in the order the select offers them. */
export const HISTORY_ENTITIES = ['team', 'participant', 'entry', 'user', 'settings', 'operations'] as const satisfies readonly HistoryEntity[];

/** Why a field cannot be sent. */
export type FilterProblem = 'invalidId' | 'invalidDateTime' | 'invalidEventType' | 'rangeOrder' | 'tooLong';

/** The query's filter part (the API's names); absent fields are not filtered on. */
export type HistoryFilterQuery = Omit<HistoryQuery, 'after' | 'limit'>;

// The contract's patterns (contracts/history.ts), repeated so that the form says what is wrong
// before the server answers a bare INVALID_REQUEST.
const ID = /^[1-9][0-9]{0,9}$/;
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9]{0,99}$/;
const MAX_STREAM = 200;
const MAX_ACTOR = 100;

/** A positive id as the contract takes it: digits without a leading zero, at most ten. */
export function isEntityId(value: string): boolean {
  return ID.test(value.trim());
}

/**
 * The problems of `values`, by field (none: an empty object). Ids must be positive integers,
 * the event type a name such as EntryEdited, from/to readable date-times with from before to.
 */
export function checkFilters(values: HistoryFilterValues): Partial<Record<FilterField, FilterProblem>> {
  const problems: Partial<Record<FilterField, FilterProblem>> = {};
  const trimmed = (field: FilterField) => values[field].trim();
  if (trimmed('stream').length > MAX_STREAM) problems.stream = 'tooLong';
  if (trimmed('actor').length > MAX_ACTOR) problems.actor = 'tooLong';
  for (const field of ['teamId', 'participantId'] as const) {
    if (trimmed(field) !== '' && !isEntityId(values[field])) problems[field] = 'invalidId';
  }
  if (trimmed('eventType') !== '' && !EVENT_TYPE.test(trimmed('eventType'))) problems.eventType = 'invalidEventType';
  const from = trimmed('from') === '' ? undefined : localInputToIso(values.from);
  const to = trimmed('to') === '' ? undefined : localInputToIso(values.to);
  if (from === null) problems.from = 'invalidDateTime';
  if (to === null) problems.to = 'invalidDateTime';
  if (from && to && from >= to) problems.to = 'rangeOrder';
  return problems;
}

/**
 * The API query for `values` (fields trimmed; empty ones left out; dates as ISO UTC instants).
 * Call checkFilters first: a field it would refuse is left out here.
 */
export function historyFilterQuery(values: HistoryFilterValues): HistoryFilterQuery {
  const problems = checkFilters(values);
  const text = (field: FilterField): string | undefined => {
    const value = values[field].trim();
    return value === '' || problems[field] !== undefined ? undefined : value;
  };
  const entity = HISTORY_ENTITIES.find((kind) => kind === values.entityType);
  const instant = (field: 'from' | 'to') => {
    const value = text(field);
    return value === undefined ? undefined : (localInputToIso(value) ?? undefined);
  };
  return dropUndefined({
    stream: text('stream'),
    entity,
    type: text('eventType'),
    team: text('teamId'),
    participant: text('participantId'),
    actor: text('actor'),
    from: instant('from'),
    to: instant('to'),
  });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A query string ("?entity=team&after=40", or "" when there is nothing to send) for a history
 * call: the filters plus the page's keyset `after` or number `page` (or moment `at`), `order`
 * and `limit`, or an export's `format`.
 */
export function historySearch(
  filters: HistoryFilterQuery,
  extra: Pick<HistoryQuery, 'after' | 'limit' | 'order' | 'page' | 'at'> | Pick<HistoryExportQuery, 'format'> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}
