/**
 * The editions of the admin console: GET /api/admin/editions (every edition, drafts included,
 * oldest first) and the commands POST /api/admin/editions (plan), PUT /api/admin/editions/{year}
 * (change), POST …/{year}/open (announce) and POST …/{year}/close (archive, after the late-entry
 * deadline). Each command answers 200/201 `{ edition: EditionView }`.
 *
 * A refusal of edition data names the field that broke the rule (`{ message: CODE, field }`,
 * e.g. `route.missions[3].name.en`), which ApiError does not carry: the commands here read the
 * answer themselves and throw EditionCommandError with both. They send what apiRequest sends
 * (the session's Authorization, an idempotency key) and, as it does, refresh the session once on
 * a 401 and end it on a 403 (spec §4).
 */
import type { Edition } from '@sinilill/domain';
import type { EditionView } from '../../../lib/edition-types';
import { apiGet, newIdempotencyKey, IDEMPOTENCY_KEY_HEADER, API_BASE } from '../../../lib/api-client';
import { toCatalogueCode, type CatalogueCode } from '../../../lib/errors/catalogue';
import { useSessionStore } from '../../../lib/session-store';

export type { EditionView } from '../../../lib/edition-types';

/** A refused edition command: the catalogue code and, for a data problem, the field's path. */
export class EditionCommandError extends Error {
  constructor(
    readonly code: CatalogueCode,
    readonly field: string | null,
    readonly status: number,
  ) {
    super(code);
    this.name = 'EditionCommandError';
  }
}

/** GET /api/admin/editions: every edition, oldest first (ADMIN; else FORBIDDEN). */
export async function listAdminEditions(signal?: AbortSignal): Promise<EditionView[]> {
  const answer = await apiGet<{ editions: EditionView[] }>('/admin/editions', signal ? { signal } : {});
  return answer.editions;
}

async function send(method: 'POST' | 'PUT', path: string, body: unknown): Promise<EditionView> {
  const key = newIdempotencyKey();
  const request = () => {
    const headers: Record<string, string> = { accept: 'application/json', [IDEMPOTENCY_KEY_HEADER]: key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const token = useSessionStore.getState().token;
    if (token) headers.authorization = token;
    return fetch(`${API_BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then((response) => ({ response, token }));
  };
  let sent: { response: Response; token: string | null };
  try {
    sent = await request();
    if (sent.response.status === 401 && sent.token !== null && (await useSessionStore.getState().refresh(sent.token))) {
      sent = await request();
    }
  } catch {
    throw new EditionCommandError('GENERIC_ERROR', null, 0);
  }
  const { response } = sent;
  const answer = (await response.json().catch(() => undefined)) as { message?: unknown; field?: unknown; edition?: EditionView } | undefined;
  if (!response.ok) {
    if ((response.status === 401 || response.status === 403) && useSessionStore.getState().isAuthenticated) useSessionStore.getState().clear();
    const field = typeof answer?.field === 'string' && answer.field !== '' ? answer.field : null;
    throw new EditionCommandError(toCatalogueCode(answer?.message, response.status), field, response.status);
  }
  if (!answer?.edition) throw new EditionCommandError('GENERIC_ERROR', null, response.status);
  return answer.edition;
}

/** POST /api/admin/editions: plans a new edition (a draft only admins see). EDITION_EXISTS, EDITION_* data codes. */
export function planEdition(edition: Edition): Promise<EditionView> {
  return send('POST', '/admin/editions', edition);
}

/** PUT /api/admin/editions/{year}: replaces a planned or opened edition's data. EDITION_CLOSED, EDITION_* data codes. */
export function changeEdition(edition: Edition): Promise<EditionView> {
  return send('PUT', `/admin/editions/${edition.year}`, edition);
}

/** POST /api/admin/editions/{year}/open: announces a planned edition (visible to all). */
export function openEdition(year: number): Promise<EditionView> {
  return send('POST', `/admin/editions/${year}/open`, undefined);
}

/** POST /api/admin/editions/{year}/close: archives an edition; EDITION_NOT_FINISHED before its late-entry deadline has passed. */
export function closeEdition(year: number): Promise<EditionView> {
  return send('POST', `/admin/editions/${year}/close`, undefined);
}

/** The error of anything a command threw: its code and field (GENERIC_ERROR for the unexpected). */
export function editionErrorOf(error: unknown): { code: CatalogueCode; field: string | null } {
  return error instanceof EditionCommandError ? { code: error.code, field: error.field } : { code: 'GENERIC_ERROR', field: null };
}
