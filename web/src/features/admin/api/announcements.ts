/**
 * Announcements: POST /api/admin/announcements sends one (throws ApiError:
 * UNAUTHORIZED, FORBIDDEN, INVALID_REQUEST, INVALID_CHARACTERS); GET
 * /api/admin/queues/announcements lists the latest with their progress (the command API answers:
 * the counts live with the mail queue); GET /api/admin/queues/announcements/recipients counts an
 * audience before sending; POST /api/admin/announcements/test mails the text to the caller only.
 */
import type {
  AnnouncementAudience,
  AnnouncementCreated,
  AnnouncementList,
  AnnouncementRecipients,
  AnnouncementRequest,
  AnnouncementTestSent,
} from '@sinilill/contracts';
import { apiGet, apiPost } from '../../../lib/api-client';

export function sendAnnouncement(body: AnnouncementRequest): Promise<AnnouncementCreated> {
  return apiPost<AnnouncementCreated>('/admin/announcements', body);
}

export function listAnnouncements(signal?: AbortSignal): Promise<AnnouncementList> {
  return apiGet<AnnouncementList>('/admin/queues/announcements', signal ? { signal } : {});
}

/** How many `audience` reaches now, in total and per language (the server's own count). */
export function countRecipients(audience: AnnouncementAudience, signal?: AbortSignal): Promise<AnnouncementRecipients> {
  return apiGet<AnnouncementRecipients>(`/admin/queues/announcements/recipients?audience=${audience}`, signal ? { signal } : {});
}

/** Mails the announcement, once in each language and marked as a test, to the calling administrator only. */
export function sendTestAnnouncement(body: AnnouncementRequest): Promise<AnnouncementTestSent> {
  return apiPost<AnnouncementTestSent>('/admin/announcements/test', body);
}
