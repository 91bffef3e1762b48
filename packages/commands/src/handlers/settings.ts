/**
 * Operators' commands of administrators (spec §4 global switches): the
 * switches in stream `settings` (settings decider) and decisions about parked events in stream
 * `operations` (parked-events.ts), each on the write path (handler/command-handler.ts).
 */
import { settingsDecider, streams, type Settings } from '@sinilill/domain';
import { handleCommand } from '../handler/command-handler';
import type { CommandRequest } from '../handler/metadata';
import { decideAboutParkedEvent } from '../parked-events';
import { readSettings } from '../settings';
import { accountContext, type AccountDeps } from './account-shared';

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

/**
 * Skips an event a projection parked (administrators): records
 * ProjectionEventSkipped in stream `operations`; the projections that parked the event (or only
 * `projection`) then mark it resolved as skipped. `reason` at most 500 characters.
 * @throws DomainError NOT_FOUND (no event at `position`), FORBIDDEN, INVALID_REQUEST, VALUE_TOO_LONG.
 */
export async function skipParkedEvent(
  deps: AccountDeps,
  input: { position: number; projection: string | null; reason: string },
  request: CommandRequest,
): Promise<{ position: number }> {
  const { ctx } = await accountContext(deps, request);
  return decideAboutParkedEvent(deps.store, { kind: 'skip', ...input }, ctx, request.metadata);
}

/**
 * Asks the projections that parked an event (or only `projection`) to apply it again
 * (administrators, after its cause was fixed): records ProjectionEventRetryRequested.
 * @throws DomainError NOT_FOUND (no event at `position`), FORBIDDEN, INVALID_REQUEST.
 */
export async function retryParkedEvent(
  deps: AccountDeps,
  input: { position: number; projection: string | null },
  request: CommandRequest,
): Promise<{ position: number }> {
  const { ctx } = await accountContext(deps, request);
  return decideAboutParkedEvent(deps.store, { kind: 'retry', ...input }, ctx, request.metadata);
}
