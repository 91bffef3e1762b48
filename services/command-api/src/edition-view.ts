/**
 * An edition as the edition commands answer it (contracts EditionViewSchema): its status in the
 * log, its life phase and whether registration is open at `nowIso`, and today's date in its own
 * time zone (the phases are judged there, spec §4).
 */
import { isRegistrationOpen, lifePhase, localDate, type EditionLifePhase, type EditionRecord, type EditionStatus, type Edition } from '@sinilill/domain';

export interface EditionView {
  year: number;
  status: EditionStatus;
  phase: EditionLifePhase;
  registrationOpen: boolean;
  /** YYYY-MM-DD in the edition's time zone. */
  today: string;
  edition: Edition;
}

/** The view of `record` at `nowIso` (ISO-8601 instant). */
export function editionView(record: EditionRecord, nowIso: string): EditionView {
  return {
    year: record.edition.year,
    status: record.status,
    phase: lifePhase(record, nowIso),
    registrationOpen: isRegistrationOpen(record, nowIso),
    today: localDate(nowIso, record.edition.timeZone),
    edition: record.edition,
  };
}
