/**
 * The add/edit entry form (spec §2 "Add-entry modal", §5 "Add entry" / "Edit entry"): its values
 * as typed, their checks (the server repeats them) and the request body they make.
 */
import type { AddEntryBody, Entry } from '@sinilill/contracts';
import {
  ENTRY_TYPE_MAX,
  hasAtMostTwoDecimals,
  isPerformedWithinEdition,
  MAX_ENTRY_DISTANCE_KM,
  textLength,
  type ActivityType,
  type Edition,
} from '@sinilill/domain';
import { REQUIRED, type FieldProblem, type FieldProblems } from '../../../lib/form-validation';
import { entryTypeChoice, entryTypeValue, isPresetType } from '../../../lib/entry-type';
import type { Language } from '@sinilill/contracts';
import { parseDecimal } from '../../../lib/parse-decimal';

export type EntryFormMode = 'add' | 'edit';

/** The form's values as the controls hold them (strings). */
export interface EntryFormValues {
  /** km as typed: "12,5" or "12.5" in either language (parseDecimal). */
  distance: string;
  /** A preset key, or '' before a choice. */
  type: ActivityType | '';
  /** The free text when `type` is OTHER. */
  otherText: string;
  /** YYYY-MM-DD. */
  performedAt: string;
  /** The member's participant id, as the select's value. */
  participantId: string;
}

export type EntryFormField = keyof EntryFormValues;

/** The fields in the form's order: the first with a problem gets the focus. */
export const ENTRY_FORM_FIELDS: readonly EntryFormField[] = ['distance', 'type', 'otherText', 'performedAt', 'participantId'];

/** Smallest distance, km: 0.01 for a new entry, 0 when editing (spec §5). */
export function minDistance(mode: EntryFormMode): number {
  return mode === 'add' ? 0.01 : 0;
}

/** Step of the distance input, km (spec §5). */
export const DISTANCE_STEP = 0.01;

/** Largest distance of one entry, km (the domain's MAX_ENTRY_DISTANCE_KM). */
export const MAX_DISTANCE = MAX_ENTRY_DISTANCE_KM;

/** Most digits after the decimal separator of a distance, km (spec §5: step 0.01). */
export const DISTANCE_DECIMALS = 2;

/**
 * The distance typed, checked: required; a number as parseDecimal reads it (a decimal comma or
 * point, thousands grouped by a space; anything ambiguous is refused with a message saying what to
 * type) with at most two decimals; at least minDistance(mode) and at most MAX_ENTRY_DISTANCE_KM
 * (1000), else INVALID_DISTANCE.
 */
export function checkDistance(text: string, mode: EntryFormMode): FieldProblem | undefined {
  const parsed = parseDecimal(text, { maxDecimals: DISTANCE_DECIMALS });
  if (!parsed.ok) return parsed.problem === 'empty' ? REQUIRED : { kind: 'decimal', problem: parsed.problem, maxDecimals: DISTANCE_DECIMALS };
  const km = parsed.value;
  if (!hasAtMostTwoDecimals(km) || km < minDistance(mode) || km > MAX_ENTRY_DISTANCE_KM) return { kind: 'code', code: 'INVALID_DISTANCE' };
  return undefined;
}

/** The distance as a number of km (call after checkDistance passed; NaN otherwise). */
export function parseDistance(text: string): number {
  const parsed = parseDecimal(text, { maxDecimals: DISTANCE_DECIMALS });
  return parsed.ok ? parsed.value : Number.NaN;
}

/** The performed-at day: required, and within the edition's April, else INVALID_PERFORMED_AT. */
export function checkPerformedAt(value: string, edition: Edition): FieldProblem | undefined {
  if (value.trim() === '') return REQUIRED;
  return isPerformedWithinEdition(value, edition) ? undefined : { kind: 'code', code: 'INVALID_PERFORMED_AT' };
}

/**
 * Every problem of the form (empty when it can be sent): distance as checkDistance; a type is
 * required; OTHER requires its free text (at most ENTRY_TYPE_MAX characters); performed-at as
 * checkPerformedAt; the member is required and must be one of `memberIds` (PARTICIPANT_NOT_IN_TEAM).
 */
export function checkEntryForm(
  values: EntryFormValues,
  mode: EntryFormMode,
  edition: Edition,
  memberIds: readonly number[],
): FieldProblems<EntryFormField> {
  const problems: FieldProblems<EntryFormField> = {};
  const distance = checkDistance(values.distance, mode);
  if (distance) problems.distance = distance;
  if (values.type === '' || !isPresetType(values.type)) problems.type = REQUIRED;
  if (values.type === 'OTHER') {
    const text = values.otherText.trim();
    if (text === '') problems.otherText = REQUIRED;
    else if (textLength(text) > ENTRY_TYPE_MAX) problems.otherText = { kind: 'tooLong', max: ENTRY_TYPE_MAX };
  }
  const performedAt = checkPerformedAt(values.performedAt, edition);
  if (performedAt) problems.performedAt = performedAt;
  if (values.participantId === '') problems.participantId = REQUIRED;
  else if (!memberIds.includes(Number(values.participantId))) problems.participantId = { kind: 'code', code: 'PARTICIPANT_NOT_IN_TEAM' };
  return problems;
}

/** The body of POST /entry and PUT /entry/{id}/edit for values that passed checkEntryForm. */
export function entryBody(values: EntryFormValues): AddEntryBody {
  return {
    distance: parseDistance(values.distance),
    entry_type: entryTypeValue(values.type === '' ? 'OTHER' : values.type, values.otherText),
    performed_at: values.performedAt,
    participant_id: Number(values.participantId),
  };
}

/**
 * The day a new entry starts with: `today` (YYYY-MM-DD, the edition's zone) while the event
 * runs, else the nearest day of the event (its first day before, its last day after).
 */
export function defaultPerformedAt(today: string, edition: Edition): string {
  if (today < edition.startDate) return edition.startDate;
  if (today > edition.endDate) return edition.endDate;
  return today;
}

/**
 * The form's starting values: a new entry for `participantId` on defaultPerformedAt(today), or
 * `entry` as stored (a free-text type opens as OTHER + its text; its distance written with the
 * decimal separator of `defaults.lang`, Estonian's comma unless English is given).
 */
export function initialEntryForm(
  entry: Entry | null,
  defaults: { participantId: number | null; today: string; lang?: Language },
  edition: Edition,
): EntryFormValues {
  if (entry) {
    const { choice, otherText } = entryTypeChoice(entry.entry_type);
    return {
      distance: defaults.lang === 'en' ? String(entry.distance) : String(entry.distance).replace('.', ','),
      type: choice,
      otherText,
      performedAt: entry.performed_at,
      participantId: String(entry.participant_id),
    };
  }
  return {
    distance: '',
    type: '',
    otherText: '',
    performedAt: defaultPerformedAt(defaults.today, edition),
    participantId: defaults.participantId === null ? '' : String(defaults.participantId),
  };
}
