import type { AddEntryBody, EntryAnswer } from '@sinilill/contracts';
import { apiPost } from '../../../lib/api-client';

/**
 * POST /api/entry (spec §7): logs a distance. Throws ApiError: INVALID_DISTANCE,
 * INVALID_ENTRY_TYPE, INVALID_PERFORMED_AT, ENTRY_INSERTION_DISABLED, ENTRY_DEADLINE_PASSED,
 * PARTICIPANT_NOT_IN_TEAM, FORBIDDEN.
 */
export function addEntry(body: AddEntryBody): Promise<EntryAnswer> {
  return apiPost<EntryAnswer>('/entry', body);
}
