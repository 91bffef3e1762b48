/**
 * An entry's type (spec §3 "Entry": entry_type is a preset key or free text): one of the presets
 * of ACTIVITY_TYPES, or whatever was typed under "Other".
 */
import { ACTIVITY_TYPES, type ActivityType } from '@sinilill/domain';

/** True when `value` is one of the twelve preset keys (OTHER included). */
export function isPresetType(value: string): value is ActivityType {
  return (ACTIVITY_TYPES as readonly string[]).includes(value);
}

/** What the form's type controls show for a stored entry_type. */
export interface EntryTypeChoice {
  /** The select's value. */
  choice: ActivityType;
  /** The free text under OTHER ('' for a preset). */
  otherText: string;
}

/**
 * Splits a stored entry_type for the form: a preset key selects itself; anything else selects
 * OTHER with the text in the free-text input ("Jooga" → OTHER + "Jooga"). The bare key OTHER
 * (imported data) selects OTHER with an empty text.
 */
export function entryTypeChoice(entryType: string): EntryTypeChoice {
  if (isPresetType(entryType)) return { choice: entryType, otherText: '' };
  return { choice: 'OTHER', otherText: entryType.trim() };
}

/**
 * The entry_type to send for the form's choice: the preset key, or for OTHER the trimmed free
 * text (which the form requires).
 */
export function entryTypeValue(choice: ActivityType, otherText: string): string {
  return choice === 'OTHER' ? otherText.trim() : choice;
}

/**
 * How a table shows an entry_type: a preset by its translated label (`presetLabel`), free text as
 * typed (trimmed); an empty text as "Other".
 */
export function entryTypeLabel(entryType: string, presetLabel: (type: ActivityType) => string): string {
  if (isPresetType(entryType)) return presetLabel(entryType);
  const text = entryType.trim();
  return text === '' ? presetLabel('OTHER') : text;
}
