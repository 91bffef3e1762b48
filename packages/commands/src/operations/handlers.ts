/**
 * Administrators' decisions about events a projection parked: skip or retry, each an event in
 * stream `operations` (parked-events.ts), on the write path (execute-command.ts).
 */
import type { CommandRequest } from '../metadata';
import { accountContext, type AccountDeps } from '../account/shared';
import { decideAboutParkedEvent } from './parked-events';

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
