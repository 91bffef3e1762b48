/**
 * The administrators' event history calls (contracts/history.ts, served by the query
 * API's routes/history.ts). All answer only an administrator (401/403 otherwise) and throw
 * ApiError with a catalogue code; INVALID_REQUEST for a filter the server refuses.
 */
import type { HistoryOrder, HistoryPage, TeamAsOfAnswer, TimelineAnswer } from '@sinilill/contracts';
import { apiGet } from '../../../../lib/api-client';
import { fallbackExportName, type ExportFormat } from '../utils/download';
import { historySearch, type HistoryFilterQuery } from '../utils/history-filters';
import { fetchFile, saveBlob } from './download-file';

/** Page sizes offered (spec §9: the admin tables' 25, 50, 100); the contract allows up to 500. */
export const HISTORY_PAGE_SIZES = [25, 50, 100] as const;
/** Page size the tab starts with (spec §2: the admin tables show 50 per page). */
export const HISTORY_PAGE_SIZE = 50;

/** Which numbered page of the history to read: a page number (from 1), or the page of a moment. */
export type HistoryPlace = { page: number } | { at: string };

/**
 * GET /api/admin/history with numbered pages: the events matching `filters` in `order` (newest or
 * oldest first), `limit` a page, on page `place.page` or on the page holding the moment
 * `place.at` (an ISO instant); the answer's `total` and `page` say how many match and which page
 * this is.
 */
export function getHistoryPage(filters: HistoryFilterQuery, order: HistoryOrder, place: HistoryPlace, limit: number, signal?: AbortSignal): Promise<HistoryPage> {
  const where = 'at' in place ? { at: place.at } : { page: String(place.page) };
  return apiGet<HistoryPage>(`/admin/history${historySearch(filters, { ...where, order, limit: String(limit) })}`, { signal });
}

/**
 * GET /api/admin/history/timeline?stream=: one stream's events, oldest first, each with its
 * actor, correlation id and the fields it changed (before null for a first value). An unknown
 * stream answers an empty list.
 */
export function getTimeline(stream: string, signal?: AbortSignal): Promise<TimelineAnswer> {
  return apiGet<TimelineAnswer>(`/admin/history/timeline?${new URLSearchParams({ stream })}`, { signal });
}

/**
 * GET /api/admin/history/team/{teamId}/as-of?at=: the team's figures folded from the events
 * recorded up to `at` (an ISO-8601 instant): members, distance in km (rounded and exact),
 * prestige, in-lap km, blue flowers. NOT_FOUND when the team did not exist yet.
 */
export function getTeamAsOf(teamId: string, at: string, signal?: AbortSignal): Promise<TeamAsOfAnswer> {
  return apiGet<TeamAsOfAnswer>(`/admin/history/team/${encodeURIComponent(teamId)}/as-of?${new URLSearchParams({ at })}`, { signal });
}

/**
 * GET /api/admin/history/export?format=: every event matching `filters` (up to the log's head
 * when the export began) as NDJSON (one HistoryEvent per line) or CSV (position, recorded_at,
 * stream, type, actor, correlation_id, data), saved as the file the server names.
 *
 * @returns the saved file's name.
 */
export async function downloadHistoryExport(filters: HistoryFilterQuery, format: ExportFormat, now: Date = new Date()): Promise<string> {
  const file = await fetchFile(`/admin/history/export${historySearch(filters, { format })}`, fallbackExportName(format, now));
  saveBlob(file.blob, file.filename);
  return file.filename;
}
