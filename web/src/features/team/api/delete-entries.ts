import type { DeleteEntriesAnswer } from '@sinilill/contracts';
import { apiPut } from '../../../lib/api-client';

/**
 * PUT /api/entry/delete (spec §7): deletes entries for good. Answers how many went. Throws
 * ApiError: ENTRY_INSERTION_DISABLED, ENTRY_DEADLINE_PASSED, NOT_FOUND, FORBIDDEN.
 */
export function deleteEntries(ids: readonly number[]): Promise<DeleteEntriesAnswer> {
  return apiPut<DeleteEntriesAnswer>('/entry/delete', { entity: 'entry', ids });
}
