import type { PublicAttributesAnswer, PublicAttributesBody } from '@sinilill/contracts';
import { apiPut } from '../../../lib/api-client';

/**
 * PUT /api/team/{id}/publicattributes (spec §7): a new icon (data URL, null removes it) and/or
 * description. Throws ApiError: NOT_ALLOWED_FILE_TYPE, MAX_IMAGE_SIZE, VALUE_TOO_LONG, FORBIDDEN.
 */
export function updatePublicAttributes(id: number, body: PublicAttributesBody): Promise<PublicAttributesAnswer> {
  return apiPut<PublicAttributesAnswer>(`/team/${id}/publicattributes`, body);
}
