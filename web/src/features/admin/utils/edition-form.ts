/**
 * The editions tab's form (spec §1 route and missions, §4 dates, §9 fees and limits) as text the
 * administrator types, and its way to and from an Edition.
 *
 * Amounts are typed as a person writes them on the page: euros with a decimal comma or point
 * ("15,00" → 1500 cents), km with at most two decimals ("12,5" → 12.5), read by parseDecimal as
 * every number field of the site is. Missions are typed as name, description and length; their
 * start and end are the running sum of the lengths, computed in hundredths of a km so that
 * 0,1 + 0,2 ends at 0,3 exactly. The server validates the edition as a whole (editionProblems in
 * @sinilill/domain); the form only refuses what it cannot turn into a number, with the code and
 * field path the server would answer for the same mistake.
 */
import type { Language } from '@sinilill/contracts';
import type { Edition, Mission, ModerationRules, Route } from '@sinilill/domain';
import { formatNumber } from '../../../lib/format-number';
import { parseDecimal } from '../../../lib/parse-decimal';

/** A problem found before sending: a catalogue code and the field path ("fees.adultCents"). */
export interface FormProblem {
  code: 'EDITION_INVALID' | 'EDITION_FEE_INVALID' | 'EDITION_ROUTE_INVALID' | 'EDITION_DATES_INVALID';
  field: string;
}

/** One mission row of the route table, as typed. */
export interface MissionDraft {
  /** The mission's id (kept when a saved route is edited; new rows take the next free one). */
  id: number;
  blueFlowerAmount: number;
  nameEt: string;
  nameEn: string;
  descriptionEt: string;
  descriptionEn: string;
  /** Length in km, as typed ("12,5"). */
  km: string;
  /** "longitude, latitude" in degrees, as typed; empty: the map places it by name. */
  position: string;
}

export const FEE_FIELDS = ['adultCents', 'childCents', 'companyPerPersonCents', 'donationDefaultCents', 'donationMinCents'] as const;
export type FeeField = (typeof FEE_FIELDS)[number];
export const LIMIT_FIELDS = ['emailMax', 'fullNameMax', 'joinCodeMax', 'teamNameMax', 'descriptionMax', 'passwordMin', 'imageMaxBytes', 'birthYearMin', 'birthYearMax'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
export const FLOWER_FIELDS = ['base', 'perPrestige', 'fullLapBonus', 'maxPerLapBase', 'nextFlowerFallbackKm'] as const;
export type FlowerField = (typeof FLOWER_FIELDS)[number];
export const TEAM_DOT_FIELDS = ['percentPerParticipant', 'maxParticipants'] as const;
export type TeamDotField = (typeof TEAM_DOT_FIELDS)[number];

/** The whole form as typed. Dates are the inputs' own values (YYYY-MM-DD, YYYY-MM-DDTHH:mm). */
export interface EditionDraft {
  year: string;
  nameEt: string;
  nameEn: string;
  timeZone: string;
  registrationOpens: string;
  startDate: string;
  endDate: string;
  lateEntriesUntil: string;
  prizeDraw: string;
  /** Euros as typed ("15,00"). */
  fees: Record<FeeField, string>;
  childFromBirthYear: string;
  limits: Record<LimitField, string>;
  flowers: Record<FlowerField, string>;
  teamDots: Record<TeamDotField, string>;
  /** The moderation rules as JSON text (kept from the edition the draft started from). */
  moderation: string;
  drawRulesEt: string;
  drawRulesEn: string;
  missions: MissionDraft[];
}

/** Cents as the page writes euros in an input: "15,00" (Estonian), "15.00" (English). */
export function centsToText(cents: number, lang: Language): string {
  return formatNumber(cents / 100, { decimals: 2, lang });
}

/** Euros as typed ("15,00", "15.5", "1 000") as whole cents, or null when it is not an amount. */
export function parseEuros(text: string): number | null {
  const parsed = parseDecimal(text, { maxDecimals: 2 });
  return parsed.ok ? Math.round(parsed.value * 100) : null;
}

/** Km as the page writes them in an input: "12,5" (Estonian), "12.5" (English), no trailing zeros. */
export function kmToText(km: number, lang: Language): string {
  const decimals = Number.isInteger(km) ? 0 : Number.isInteger(km * 10) ? 1 : 2;
  return formatNumber(km, { decimals, lang });
}

/** Km as typed as whole hundredths of a km, or null when it is not a length with ≤ 2 decimals. */
export function parseKmHundredths(text: string): number | null {
  const parsed = parseDecimal(text, { maxDecimals: 2 });
  return parsed.ok ? Math.round(parsed.value * 100) : null;
}

/** A plain number as typed (≤ `decimals` decimals), or null. */
function parseNumber(text: string, decimals: number): number | null {
  const parsed = parseDecimal(text, { maxDecimals: decimals });
  return parsed.ok ? parsed.value : null;
}

/**
 * A map position as typed, [longitude, latitude] in degrees: "24.75, 59.43" or "24.75 59.43"
 * (decimal points), or "24,75; 59,43" (a semicolon between, decimal commas allowed). Null when it
 * is not two numbers; their range is the server's to check.
 */
export function parsePosition(typed: string): [number, number] | null {
  const trimmed = typed.trim();
  const parts = trimmed.includes(';') ? trimmed.split(';').map((p) => p.trim().replace(',', '.')) : trimmed.split(/\s*,\s*|\s+/);
  if (parts.length !== 2 || !parts.every((p) => /^-?\d+(\.\d+)?$/.test(p))) return null;
  return [Number(parts[0]), Number(parts[1])];
}

function positionToText(position: [number, number] | undefined): string {
  return position ? `${position[0]}, ${position[1]}` : '';
}

/** `date` (YYYY-MM-DD…) moved by `years`; 29 February becomes 28 February in a common year. */
export function moveYears(date: string, years: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(date);
  if (!match) return date;
  const [, y, m, d, rest] = match as unknown as [string, string, string, string, string];
  const year = Number(y) + years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const day = m === '02' && d === '29' && !leap ? '28' : d;
  return `${String(year).padStart(4, '0')}-${m}-${day}${rest}`;
}

function numbersToText<K extends string>(keys: readonly K[], source: Partial<Record<K, unknown>> | undefined, lang: Language): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) {
    const value = source?.[key];
    out[key] = typeof value === 'number' ? formatNumber(value, { decimals: Number.isInteger(value) ? 0 : 2, lang }).replace(/\u00a0/g, '') : '';
  }
  return out;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function bilingual(value: unknown): { et: string; en: string } {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { et: text(v.et), en: text(v.en) };
}

/** The mission rows of a route (anything missing left empty for the server to name). */
export function missionDrafts(missions: readonly Partial<Mission>[], lang: Language): MissionDraft[] {
  return missions.map((m, index) => {
    const name = bilingual(m.name);
    const description = bilingual(m.description);
    return {
      id: typeof m.id === 'number' ? m.id : index + 1,
      blueFlowerAmount: typeof m.blueFlowerAmount === 'number' ? m.blueFlowerAmount : 1,
      nameEt: name.et,
      nameEn: name.en,
      descriptionEt: description.et,
      descriptionEn: description.en,
      km: typeof m.distance === 'number' ? kmToText(m.distance, lang) : '',
      position: positionToText(m.position),
    };
  });
}

/**
 * The form filled from an edition (a saved one, an uploaded file's, or the previous one's).
 * Fields the data lacks are left empty, so that saving lets the server say which is missing.
 */
export function draftFromEdition(edition: Partial<Edition>, lang: Language): EditionDraft {
  const name = bilingual(edition.name);
  const fees = edition.fees ?? ({} as Partial<Edition['fees']>);
  const feesText = {} as Record<FeeField, string>;
  for (const field of FEE_FIELDS) feesText[field] = typeof fees[field] === 'number' ? centsToText(fees[field], lang).replace(/\u00a0/g, '') : '';
  return {
    year: typeof edition.year === 'number' ? String(edition.year) : '',
    nameEt: name.et,
    nameEn: name.en,
    timeZone: text(edition.timeZone) || 'Europe/Tallinn',
    registrationOpens: text(edition.registrationOpens),
    startDate: text(edition.startDate),
    endDate: text(edition.endDate),
    lateEntriesUntil: text(edition.lateEntriesUntil),
    prizeDraw: text(edition.prizeDraw),
    fees: feesText,
    childFromBirthYear: typeof fees.childFromBirthYear === 'number' ? String(fees.childFromBirthYear) : '',
    limits: numbersToText(LIMIT_FIELDS, edition.limits, lang),
    flowers: numbersToText(FLOWER_FIELDS, edition.flowers, lang),
    teamDots: numbersToText(TEAM_DOT_FIELDS, edition.teamDots, lang),
    moderation: edition.moderation ? JSON.stringify(edition.moderation, null, 2) : '',
    drawRulesEt: edition.drawRules?.et ?? '',
    drawRulesEn: edition.drawRules?.en ?? '',
    missions: missionDrafts(Array.isArray(edition.route?.missions) ? edition.route.missions : [], lang),
  };
}

/**
 * The next edition's form from the latest one: the year after, its dates moved a year, the
 * year in its names replaced ("Sinilill 2026" → "Sinilill 2027"); fees, limits, flower
 * parameters, moderation rules, draw rules and route kept as they were.
 */
export function nextEditionDraft(latest: Edition, lang: Language): EditionDraft {
  const from = String(latest.year);
  const to = String(latest.year + 1);
  const renamed = (name: string) => name.split(from).join(to);
  const draft = draftFromEdition(latest, lang);
  return {
    ...draft,
    year: to,
    nameEt: renamed(draft.nameEt),
    nameEn: renamed(draft.nameEn),
    registrationOpens: moveYears(latest.registrationOpens, 1),
    startDate: moveYears(latest.startDate, 1),
    endDate: moveYears(latest.endDate, 1),
    lateEntriesUntil: moveYears(latest.lateEntriesUntil, 1),
    prizeDraw: moveYears(latest.prizeDraw, 1),
  };
}

/** An empty mission row with the next free id. */
export function newMission(missions: readonly MissionDraft[]): MissionDraft {
  const id = missions.reduce((max, m) => Math.max(max, m.id), 0) + 1;
  return { id, blueFlowerAmount: 1, nameEt: '', nameEn: '', descriptionEt: '', descriptionEn: '', km: '', position: '' };
}

/**
 * The route of the mission rows: each mission starts where the previous ended, the lap is the
 * sum. A length or position that is not a number is a problem of its row
 * (EDITION_ROUTE_INVALID, `route.missions[i].distance` / `.position`).
 */
export function routeFromDrafts(missions: readonly MissionDraft[]): { route: Route; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  let at = 0; // hundredths of a km
  const built = missions.map((m, index): Mission => {
    const hundredths = parseKmHundredths(m.km);
    if (hundredths === null) problems.push({ code: 'EDITION_ROUTE_INVALID', field: `route.missions[${index}].distance` });
    const start = at;
    at += hundredths ?? 0;
    const mission: Mission = {
      id: m.id,
      blueFlowerAmount: m.blueFlowerAmount,
      start: start / 100,
      end: at / 100,
      distance: (hundredths ?? 0) / 100,
      name: { et: m.nameEt.trim(), en: m.nameEn.trim() },
      description: { et: m.descriptionEt.trim(), en: m.descriptionEn.trim() },
    };
    if (m.position.trim() !== '') {
      const position = parsePosition(m.position);
      if (position === null) problems.push({ code: 'EDITION_ROUTE_INVALID', field: `route.missions[${index}].position` });
      else mission.position = position;
    }
    return mission;
  });
  return { route: { lapLength: at / 100, missions: built }, problems };
}

/**
 * The edition the form describes, ready to send, or the fields that are not numbers.
 * The moderation rules must be a JSON object (EDITION_INVALID `moderation` otherwise); draw
 * rules are sent only when either language is filled in (the server wants both then).
 */
export function editionFromDraft(draft: EditionDraft): { ok: true; edition: Edition } | { ok: false; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const year = parseNumber(draft.year, 0);
  if (year === null) problems.push({ code: 'EDITION_INVALID', field: 'year' });
  const fees = {} as Record<FeeField, number>;
  for (const field of FEE_FIELDS) {
    const cents = parseEuros(draft.fees[field]);
    if (cents === null) problems.push({ code: 'EDITION_FEE_INVALID', field: `fees.${field}` });
    fees[field] = cents ?? 0;
  }
  const childFromBirthYear = parseNumber(draft.childFromBirthYear, 0);
  if (childFromBirthYear === null) problems.push({ code: 'EDITION_FEE_INVALID', field: 'fees.childFromBirthYear' });
  const numbers = <K extends string>(group: string, keys: readonly K[], values: Record<K, string>, decimals: number) => {
    const out = {} as Record<K, number>;
    for (const key of keys) {
      const value = parseNumber(values[key], decimals);
      if (value === null) problems.push({ code: 'EDITION_INVALID', field: `${group}.${key}` });
      out[key] = value ?? 0;
    }
    return out;
  };
  const limits = numbers('limits', LIMIT_FIELDS, draft.limits, 0);
  const flowers = numbers('flowers', FLOWER_FIELDS, draft.flowers, 2);
  const teamDots = numbers('teamDots', TEAM_DOT_FIELDS, draft.teamDots, 2);
  let moderation: ModerationRules | null = null;
  try {
    const parsed: unknown = JSON.parse(draft.moderation);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) moderation = parsed as ModerationRules;
  } catch {
    // Not JSON: reported below.
  }
  if (moderation === null) problems.push({ code: 'EDITION_INVALID', field: 'moderation' });
  const { route, problems: routeProblems } = routeFromDrafts(draft.missions);
  problems.push(...routeProblems);
  if (problems.length > 0) return { ok: false, problems };
  const edition: Edition = {
    year: year!,
    name: { et: draft.nameEt.trim(), en: draft.nameEn.trim() },
    registrationOpens: draft.registrationOpens,
    timeZone: draft.timeZone.trim(),
    startDate: draft.startDate,
    endDate: draft.endDate,
    lateEntriesUntil: draft.lateEntriesUntil,
    prizeDraw: draft.prizeDraw,
    fees: { ...fees, childFromBirthYear: childFromBirthYear! },
    limits,
    flowers,
    teamDots,
    moderation: moderation!,
    route,
  };
  if (draft.drawRulesEt.trim() !== '' || draft.drawRulesEn.trim() !== '') {
    edition.drawRules = { et: draft.drawRulesEt.trim(), en: draft.drawRulesEn.trim() };
  }
  return { ok: true, edition };
}

/** What an uploaded JSON file held. */
export type UploadResult =
  | { ok: true; kind: 'edition'; draft: EditionDraft }
  | { ok: true; kind: 'route'; missions: MissionDraft[] }
  | { ok: false; problem: 'notJson' | 'unknownShape' }
  | { ok: false; problem: 'routeMismatch'; field: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an uploaded file: a whole edition (an object with `year` or `route`), a route (an
 * object with `missions`, as route-*.json of the seed) or a bare list of missions. A route's
 * missions become rows; their start and end are not typed in the table but recomputed from the
 * lengths, so a file whose start or end disagrees with the running sum of the lengths is refused
 * (`routeMismatch`, the first such field) rather than silently "repaired".
 */
export function parseEditionUpload(content: string, lang: Language): UploadResult {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { ok: false, problem: 'notJson' };
  }
  const routeOf = (value: unknown): unknown[] | null => {
    if (Array.isArray(value)) return value;
    if (isRecord(value) && Array.isArray(value.missions)) return value.missions;
    return null;
  };
  const checkSums = (missions: unknown[], prefix: string): string | null => {
    let at = 0;
    for (const [index, raw] of missions.entries()) {
      if (!isRecord(raw)) return `${prefix}[${index}]`;
      const { start, end, distance } = raw;
      if (typeof distance !== 'number') continue; // the server names the missing length
      const d = Math.round(distance * 100);
      if (typeof start === 'number' && Math.round(start * 100) !== at) return `${prefix}[${index}].start`;
      if (typeof end === 'number' && Math.round(end * 100) !== at + d) return `${prefix}[${index}].end`;
      at += d;
    }
    return null;
  };
  if (isRecord(data) && ('year' in data || 'route' in data)) {
    const missions = routeOf(data.route) ?? [];
    const mismatch = checkSums(missions, 'route.missions');
    if (mismatch) return { ok: false, problem: 'routeMismatch', field: mismatch };
    return { ok: true, kind: 'edition', draft: draftFromEdition(data as Partial<Edition>, lang) };
  }
  const missions = routeOf(data);
  if (missions === null) return { ok: false, problem: 'unknownShape' };
  const mismatch = checkSums(missions, 'route.missions');
  if (mismatch) return { ok: false, problem: 'routeMismatch', field: mismatch };
  return { ok: true, kind: 'route', missions: missionDrafts(missions.filter(isRecord) as Partial<Mission>[], lang) };
}

/** `list` (oldest first) with `view` in place of the same year's, or added in year order. */
export function withView<V extends { year: number }>(list: readonly V[], view: V): V[] {
  return [...list.filter((v) => v.year !== view.year), view].sort((a, b) => a.year - b.year);
}
