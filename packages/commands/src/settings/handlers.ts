/**
 * The global switches of administrators (spec §4) in stream `settings` (settings decider), on the
 * write path (execute-command.ts).
 */
import { settingsDecider, streams, type Settings } from '@sinilill/domain';
import { handleCommand } from '../execute-command';
import type { CommandRequest } from '../metadata';
import { readSettings } from './settings-cache';
import { accountContext, type AccountDeps } from '../account/shared';

/**
 * Turns global switches on or off (spec §4; administrators). Registration off: /registerteam
 * and /jointeam answer REGISTRATION_DISABLED; entry insertion off: ENTRY_INSERTION_DISABLED.
 * @returns the switches after the change and the position (the stream's last, when nothing changed).
 * @throws DomainError FORBIDDEN, INVALID_REQUEST.
 */
export async function changeSettings(deps: AccountDeps, changes: Partial<Settings>, request: CommandRequest): Promise<{ settings: Settings; position: number }> {
  const { ctx } = await accountContext(deps, request);
  const result = await handleCommand(deps.store, streams.settings(), settingsDecider, { type: 'ChangeSettings', data: changes }, ctx, request.metadata);
  return { settings: await readSettings(deps.store), position: result.position };
}
