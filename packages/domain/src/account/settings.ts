/**
 * The global switches (spec §4: "Entry insertion and registration are each globally
 * switchable") as a decider over the one stream `settings`. Both switches are on until an
 * administrator turns one off.
 */
import { match } from 'ts-pattern';
import { isPrivileged } from '../actors';
import type { Decider, DecisionContext } from '../decider';
import { DomainError } from '../errors';
import type { SettingsChanged, SettingsEvent } from '../events';
import type { Settings } from './rules';

/** Turn switches on or off; absent switches stay as they are. */
export interface ChangeSettings {
  type: 'ChangeSettings';
  data: { registrationEnabled?: boolean; entryInsertionEnabled?: boolean };
}
export type SettingsCommand = ChangeSettings;

/** The switches before any SettingsChanged: everything on. */
export const DEFAULT_SETTINGS: Settings = Object.freeze({ registrationEnabled: true, entryInsertionEnabled: true });

function changeSettings(command: ChangeSettings, state: Settings, ctx: DecisionContext): SettingsEvent[] {
  if (!isPrivileged(ctx.actor)) throw new DomainError('FORBIDDEN', 'only an administrator changes the global switches');
  const data = command.data as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (key !== 'registrationEnabled' && key !== 'entryInsertionEnabled') throw new DomainError('INVALID_REQUEST', `unknown switch ${key}`);
    if (data[key] !== undefined && typeof data[key] !== 'boolean') throw new DomainError('INVALID_REQUEST', `${key} must be a boolean`);
  }
  const changed: SettingsChanged['data'] = { changedAt: ctx.now };
  const { registrationEnabled, entryInsertionEnabled } = command.data;
  if (registrationEnabled !== undefined && registrationEnabled !== state.registrationEnabled) changed.registrationEnabled = registrationEnabled;
  if (entryInsertionEnabled !== undefined && entryInsertionEnabled !== state.entryInsertionEnabled) changed.entryInsertionEnabled = entryInsertionEnabled;
  if (changed.registrationEnabled === undefined && changed.entryInsertionEnabled === undefined) return [];
  return [{ type: 'SettingsChanged', data: changed }];
}

function evolveSettings(state: Settings, event: SettingsEvent): Settings {
  return match(event)
    .with({ type: 'SettingsChanged' }, ({ data }) => ({
      registrationEnabled: data.registrationEnabled ?? state.registrationEnabled,
      entryInsertionEnabled: data.entryInsertionEnabled ?? state.entryInsertionEnabled,
    }))
    .exhaustive();
}

/**
 * ChangeSettings → [SettingsChanged] carrying only the switches whose value changes ([] when none
 * does). ADMIN or SYSTEM only (FORBIDDEN); a non-boolean or unknown switch → INVALID_REQUEST.
 */
export const settingsDecider: Decider<SettingsCommand, SettingsEvent, Settings> = {
  initialState: () => ({ ...DEFAULT_SETTINGS }),
  decide: (command, state, ctx) =>
    match(command)
      .with({ type: 'ChangeSettings' }, (c) => changeSettings(c, state, ctx))
      .exhaustive(),
  evolve: evolveSettings,
};
