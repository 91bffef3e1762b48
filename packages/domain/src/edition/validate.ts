/**
 * The rules an edition's data must keep before it is planned or changed (spec §1 route and
 * missions, §4 dates, §9 fees and limits). An admin types or uploads it, so every break is
 * refused with its own catalogue code (both languages carry its text) and the `field` that
 * broke it, never stored half-right.
 */
import { isValidCalendarDate } from '../dates';
import { DomainError, type ErrorCode } from '../errors';
import { validateRoute } from './route';
import type { Edition } from './types';

/** One broken rule: its catalogue code and the JSON path of the field ("route.missions[3].name.en"). */
export interface EditionProblem {
  code: ErrorCode;
  field: string;
  detail: string;
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every problem of `data` as an edition, in the order a reader meets them (empty: valid).
 *
 * - EDITION_INVALID: a missing field or one of the wrong kind (year, name in both languages, time
 *   zone, a limit, a flower parameter, a moderation rule).
 * - EDITION_DATES_INVALID: a date that is not a real `YYYY-MM-DD` of the edition's year, or dates
 *   out of order: registrationOpens ≤ startDate ≤ endDate ≤ lateEntriesUntil < prize draw day
 *   (`YYYY-MM-DDTHH:mm`, local).
 * - EDITION_FEE_INVALID: a fee or donation amount that is not a whole number of EUR cents ≥ 0
 *   (the donation minimum ≥ 1 cent, the default ≥ the minimum), or a child birth year that is not a year.
 * - EDITION_MISSION_NAME_MISSING: a mission without its name in Estonian or in English.
 * - EDITION_ROUTE_INVALID: the route's shape (route.ts validateRoute: missions contiguous from 0 and
 *   in order, end − start = distance, the last ends at the lap length, unique ids) or a position
 *   that is not [longitude, latitude] in degrees.
 */
export function editionProblems(data: unknown): EditionProblem[] {
  const problems: EditionProblem[] = [];
  const add = (code: ErrorCode, field: string, detail: string) => problems.push({ code, field, detail });
  if (!isObject(data)) return [{ code: 'EDITION_INVALID', field: '', detail: 'an edition is a JSON object' }];
  const e = data as Partial<Record<keyof Edition, unknown>>;
  const year = e.year;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 2000 || year > 2200) add('EDITION_INVALID', 'year', 'the year is a whole number from 2000 to 2200');
  for (const language of ['et', 'en'] as const) {
    if (!isObject(e.name) || !isText(e.name[language])) add('EDITION_INVALID', `name.${language}`, `the edition's name in ${language === 'et' ? 'Estonian' : 'English'} is missing`);
  }
  if (!isTimeZone(e.timeZone)) add('EDITION_INVALID', 'timeZone', 'an IANA time zone such as Europe/Tallinn');

  const days = ['registrationOpens', 'startDate', 'endDate', 'lateEntriesUntil'] as const;
  let datesReadable = true;
  for (const field of days) {
    const value = e[field];
    if (!isValidCalendarDate(value)) {
      add('EDITION_DATES_INVALID', field, 'a real date written YYYY-MM-DD');
      datesReadable = false;
    }
  }
  if (typeof e.prizeDraw !== 'string' || !LOCAL_DATE_TIME.test(e.prizeDraw) || !isValidCalendarDate(e.prizeDraw.slice(0, 10))) {
    add('EDITION_DATES_INVALID', 'prizeDraw', 'a local date and time written YYYY-MM-DDTHH:mm');
    datesReadable = false;
  }
  if (datesReadable) {
    const [opens, start, end, late] = days.map((field) => e[field] as string) as [string, string, string, string];
    const draw = (e.prizeDraw as string).slice(0, 10);
    if (typeof year === 'number' && (start.slice(0, 4) !== String(year) || end.slice(0, 4) !== String(year))) {
      add('EDITION_DATES_INVALID', 'startDate', `the event's days lie in ${year}`);
    }
    if (opens > start) add('EDITION_DATES_INVALID', 'registrationOpens', 'registration opens on or before the first day');
    if (start > end) add('EDITION_DATES_INVALID', 'endDate', 'the last day is on or after the first day');
    if (end > late) add('EDITION_DATES_INVALID', 'lateEntriesUntil', 'late entries end on or after the last day');
    if (late >= draw) add('EDITION_DATES_INVALID', 'prizeDraw', 'the prize draw is after the late-entry deadline');
  }

  if (!isObject(e.fees)) {
    add('EDITION_FEE_INVALID', 'fees', 'the fees are missing');
  } else {
    for (const field of ['adultCents', 'childCents', 'companyPerPersonCents', 'donationDefaultCents', 'donationMinCents'] as const) {
      const cents = e.fees[field];
      if (typeof cents !== 'number' || !Number.isSafeInteger(cents) || cents < 0) add('EDITION_FEE_INVALID', `fees.${field}`, 'a whole number of EUR cents, 0 or more');
    }
    const { donationMinCents, donationDefaultCents, childFromBirthYear } = e.fees;
    if (typeof donationMinCents === 'number' && donationMinCents < 1) add('EDITION_FEE_INVALID', 'fees.donationMinCents', 'a donation is at least 1 cent');
    if (typeof donationMinCents === 'number' && typeof donationDefaultCents === 'number' && donationDefaultCents < donationMinCents) {
      add('EDITION_FEE_INVALID', 'fees.donationDefaultCents', 'the default donation is at least the minimum');
    }
    if (typeof childFromBirthYear !== 'number' || !Number.isInteger(childFromBirthYear)) add('EDITION_FEE_INVALID', 'fees.childFromBirthYear', 'a birth year');
  }

  checkNumbers(e.limits, 'limits', ['emailMax', 'fullNameMax', 'joinCodeMax', 'teamNameMax', 'descriptionMax', 'passwordMin', 'imageMaxBytes', 'birthYearMin', 'birthYearMax'], add);
  checkNumbers(e.flowers, 'flowers', ['base', 'perPrestige', 'fullLapBonus', 'maxPerLapBase', 'nextFlowerFallbackKm'], add);
  checkNumbers(e.teamDots, 'teamDots', ['percentPerParticipant', 'maxParticipants'], add);
  checkModeration(e.moderation, add);
  if (e.drawRules !== undefined && (!isObject(e.drawRules) || !isText(e.drawRules.et) || !isText(e.drawRules.en))) {
    add('EDITION_INVALID', 'drawRules', 'the draw rules are given in both languages, or not at all');
  }
  checkRoute(e.route, add);
  return problems;
}

function checkNumbers(value: unknown, field: string, keys: readonly string[], add: (code: ErrorCode, field: string, detail: string) => void): void {
  if (!isObject(value)) {
    add('EDITION_INVALID', field, `${field} are missing`);
    return;
  }
  for (const key of keys) {
    const n = value[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) add('EDITION_INVALID', `${field}.${key}`, 'a number, 0 or more');
  }
}

function checkModeration(value: unknown, add: (code: ErrorCode, field: string, detail: string) => void): void {
  if (!isObject(value)) {
    add('EDITION_INVALID', 'moderation', 'the moderation rules are missing');
    return;
  }
  const limits = (rule: unknown, field: string) => checkNumbers(rule, field, ['maxKmPerEntry', 'maxKmPerDay'], add);
  limits(value.default, 'moderation.default');
  if (!isObject(value.byType)) add('EDITION_INVALID', 'moderation.byType', 'the limits per entry type are missing');
  else for (const [type, rule] of Object.entries(value.byType)) limits(rule, `moderation.byType.${type}`);
  if (typeof value.duplicates !== 'boolean') add('EDITION_INVALID', 'moderation.duplicates', 'true or false');
  if (value.teamDayOutlier !== undefined) checkNumbers(value.teamDayOutlier, 'moderation.teamDayOutlier', ['factor', 'percentile', 'minTeams'], add);
}

function checkRoute(value: unknown, add: (code: ErrorCode, field: string, detail: string) => void): void {
  if (!isObject(value) || !Array.isArray(value.missions)) {
    add('EDITION_ROUTE_INVALID', 'route', 'the route has a lap length and a list of missions');
    return;
  }
  const missions = value.missions as unknown[];
  let shapeKnown = true;
  missions.forEach((mission, index) => {
    const at = `route.missions[${index}]`;
    if (!isObject(mission)) {
      add('EDITION_ROUTE_INVALID', at, 'a mission is an object');
      shapeKnown = false;
      return;
    }
    for (const language of ['et', 'en'] as const) {
      if (!isObject(mission.name) || !isText(mission.name[language])) {
        add('EDITION_MISSION_NAME_MISSING', `${at}.name.${language}`, `mission ${index + 1} has no name in ${language === 'et' ? 'Estonian' : 'English'}`);
      }
      if (!isObject(mission.description) || typeof mission.description[language] !== 'string') {
        add('EDITION_INVALID', `${at}.description.${language}`, `mission ${index + 1}'s description in ${language === 'et' ? 'Estonian' : 'English'} (may be empty)`);
      }
    }
    for (const key of ['id', 'blueFlowerAmount', 'start', 'end', 'distance'] as const) {
      if (typeof mission[key] !== 'number' || !Number.isFinite(mission[key])) {
        add('EDITION_ROUTE_INVALID', `${at}.${key}`, 'a number');
        shapeKnown = false;
      }
    }
    const position = mission.position;
    if (position !== undefined && !(Array.isArray(position) && position.length === 2
      && typeof position[0] === 'number' && Math.abs(position[0]) <= 180 && typeof position[1] === 'number' && Math.abs(position[1]) <= 90)) {
      add('EDITION_ROUTE_INVALID', `${at}.position`, '[longitude, latitude] in degrees');
    }
  });
  if (typeof value.lapLength !== 'number') {
    add('EDITION_ROUTE_INVALID', 'route.lapLength', 'the lap length in km');
    return;
  }
  if (!shapeKnown) return;
  for (const detail of validateRoute(value as unknown as Edition['route'])) add('EDITION_ROUTE_INVALID', 'route', detail);
}

/** The days in which an edition is live: from registration's opening to the late-entry deadline. */
function liveDays(edition: Pick<Edition, 'registrationOpens' | 'lateEntriesUntil'>): [string, string] {
  return [edition.registrationOpens, edition.lateEntriesUntil];
}

/**
 * Refuses `data` unless it is a valid edition that overlaps none of `others` (the other
 * editions: from registration's opening to the late-entry deadline, no two editions share a day,
 * so that a registration or an entry always knows its edition).
 *
 * @returns the edition as given (valid).
 * @throws DomainError with the first problem's code (editionProblems, or EDITION_DATES_OVERLAP),
 *   its `detail` the field's path (answered as `field`).
 */
export function assertValidEdition(data: unknown, others: readonly Pick<Edition, 'year' | 'registrationOpens' | 'lateEntriesUntil'>[]): Edition {
  const [first] = editionProblems(data);
  if (first) throw new DomainError(first.code, first.field);
  const edition = data as Edition;
  const [from, to] = liveDays(edition);
  for (const other of others) {
    if (other.year === edition.year) continue;
    const [otherFrom, otherTo] = liveDays(other);
    if (from <= otherTo && otherFrom <= to) throw new DomainError('EDITION_DATES_OVERLAP', 'registrationOpens');
  }
  return edition;
}
