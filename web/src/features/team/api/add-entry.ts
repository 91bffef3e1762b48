import type { AddEntryBody, EntryAnswer } from '@sinilill/contracts';
import { apiPost, IDEMPOTENCY_KEY_HEADER } from '../../../lib/api-client';

/**
 * POST /api/entry (spec §7): logs a distance. `idempotencyKey`: the key made when the member
 * pressed "add" (an entry queued offline is sent with it on every try, docs/decisions/0007);
 * without one the API client makes one for this call. Throws ApiError: INVALID_DISTANCE,
 * INVALID_ENTRY_TYPE, INVALID_PERFORMED_AT, ENTRY_INSERTION_DISABLED, ENTRY_DEADLINE_PASSED,
 * PARTICIPANT_NOT_IN_TEAM, FORBIDDEN; GENERIC_ERROR with status 0 when the network failed.
 */
export function addEntry(body: AddEntryBody, idempotencyKey?: string): Promise<EntryAnswer> {
  return apiPost<EntryAnswer>('/entry', body, idempotencyKey === undefined ? {} : { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}
