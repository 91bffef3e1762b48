/**
 * Fields a client may send back as it read them ("every §7 call accepts what §3 defines
 * for it"). A client written from the spec sends whole §3 entities — an Entry with its id,
 * team_id and created_at, a Team with its team_name and join_code — where the server derives
 * those fields itself. They are accepted and compared with what the server keeps: an equal value
 * changes nothing, another value answers FIELD_MISMATCH naming the field (409), never a silent
 * override. Absent (undefined) fields are not compared.
 */
import { DomainError } from '@sinilill/domain';

/** One echoed field: its name on the wire (spec §3), what the client sent, what the server keeps. */
export interface KeptField {
  /** The §3 name, e.g. 'team_id', 'created_at', 'team.team_name'. */
  field: string;
  /** The client's value; undefined when it sent none (then nothing is compared). */
  sent: unknown;
  /** The server's value; null when the thing has none yet (an entry's id before it exists). */
  kept: string | number | boolean | null;
  /**
   * 'instant' compares ISO-8601 timestamps as moments ("2025-04-02T10:00:00Z" equals
   * "2025-04-02T13:00:00+03:00" and "...00.000Z"); default 'exact'.
   */
  compare?: 'exact' | 'instant';
}

/** True when the client's value is the server's (see KeptField.compare). */
function same(field: KeptField): boolean {
  if (field.sent === field.kept) return true;
  if (field.compare === 'instant' && typeof field.sent === 'string' && typeof field.kept === 'string') {
    const sent = Date.parse(field.sent);
    return !Number.isNaN(sent) && sent === Date.parse(field.kept);
  }
  return false;
}

/**
 * Checks every echoed field against the server's value, in the order given.
 * @throws DomainError FIELD_MISMATCH with the first differing field's name as detail (the HTTP
 *   answer's `field`).
 */
export function assertKeptFields(fields: readonly KeptField[]): void {
  for (const field of fields) {
    if (field.sent === undefined) continue;
    if (!same(field)) throw new DomainError('FIELD_MISMATCH', field.field);
  }
}
