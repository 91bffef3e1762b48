/**
 * Announcements (issue 20 item 4): POST /api/admin/announcements sends one (throws ApiError:
 * UNAUTHORIZED, FORBIDDEN, INVALID_REQUEST, INVALID_CHARACTERS); GET
 * /api/admin/queues/announcements lists the latest with their progress (the command API answers:
 * the counts live with the mail queue).
 */
import type { AnnouncementCreated, AnnouncementList, AnnouncementRequest } from '@sinilill/contracts';
import { apiGet, apiPost } from '../../../lib/api-client';

export function sendAnnouncement(body: AnnouncementRequest): Promise<AnnouncementCreated> {
  return apiPost<AnnouncementCreated>('/admin/announcements', body);
}

export function listAnnouncements(signal?: AbortSignal): Promise<AnnouncementList> {
  return apiGet<AnnouncementList>('/admin/queues/announcements', signal ? { signal } : {});
}
