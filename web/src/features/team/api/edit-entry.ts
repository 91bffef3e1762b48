import type { EditEntryBody, EntryAnswer } from '@sinilill/contracts';
import { apiPut } from '../../../lib/api-client';

/** PUT /api/entry/{id}/edit (spec §7): changes an entry. Throws ApiError as addEntry, and NOT_FOUND. */
export function editEntry(id: number, body: EditEntryBody): Promise<EntryAnswer> {
  return apiPut<EntryAnswer>(`/entry/${id}/edit`, body);
}
