/**
 * Which edition is which at an instant (spec §1 "the yearly event", §4 dates): the catalogue of
 * every edition in the log with its status, and the rules that pick the current one. Pure; the
 * command side folds it from the `edition-*` streams, the query side from its read model.
 */
import { localDate } from '../dates';
import type { EditionStatus } from './decider';
import { evolveEdition, type EditionState } from './decider';
import type { EditionEvent } from './events';
import type { Edition } from './types';

/** An edition with its status. */
export interface EditionRecord {
  edition: Edition;
  status: EditionStatus;
}

/**
 * Where an edition stands at an instant, in its own time zone:
 * - `planned`: a draft only admins see;
 * - `upcoming`: announced, registration opens on `registrationOpens`;
 * - `registration`: registration is open, the event has not begun (before `startDate`);
 * - `running`: the event's days (startDate..endDate);
 * - `lateEntries`: after the last day, entries still accepted (until `lateEntriesUntil`);
 * - `final`: results are final, the edition waits for the admin to close it (draw, certificates);
 * - `closed`: archived, read-only.
 */
export type EditionLifePhase = 'planned' | 'upcoming' | 'registration' | 'running' | 'lateEntries' | 'final' | 'closed';

/** The phase of `record` at `nowIso` (ISO-8601 instant). */
export function lifePhase(record: EditionRecord, nowIso: string): EditionLifePhase {
  if (record.status === 'planned') return 'planned';
  if (record.status === 'closed') return 'closed';
  const { edition } = record;
  const today = localDate(nowIso, edition.timeZone);
  if (today < edition.registrationOpens) return 'upcoming';
  if (today < edition.startDate) return 'registration';
  if (today <= edition.endDate) return 'running';
  if (today <= edition.lateEntriesUntil) return 'lateEntries';
  return 'final';
}

/** True while teams and participants may register for the edition (opened, registration day reached, entries still open). */
export function isRegistrationOpen(record: EditionRecord, nowIso: string): boolean {
  const phase = lifePhase(record, nowIso);
  return phase === 'registration' || phase === 'running' || phase === 'lateEntries';
}

/**
 * An edition as both APIs answer it (contracts EditionViewAnswer): its status in the log, its
 * life phase and whether registration is open at `nowIso`, and that instant's date in its own
 * time zone (the phases are judged there, spec §4).
 */
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

/** The editions of a log, by year. */
export class EditionCatalog {
  private readonly byYear: ReadonlyMap<number, EditionRecord>;

  constructor(records: readonly EditionRecord[]) {
    this.byYear = new Map([...records].sort((a, b) => a.edition.year - b.edition.year).map((r) => [r.edition.year, r]));
  }

  /**
   * The catalogue of a log's edition events (any order of streams, each stream in order).
   * A log without any edition event was written before editions existed: every event in it
   * is of the edition `before` (its upcasters say 2025), which then counts as opened.
   */
  static fromEvents(events: Iterable<{ type: string; data: unknown }>, before?: Edition): EditionCatalog {
    const states = new Map<number, EditionState>();
    for (const event of events) {
      if (!event.type.startsWith('Edition')) continue;
      const e = event as EditionEvent;
      const state = states.get(e.data.year) ?? { exists: false, edition: null, status: 'planned' as const };
      states.set(e.data.year, evolveEdition(state, e));
    }
    const records = [...states.values()].filter((s) => s.exists && s.edition).map((s) => ({ edition: s.edition!, status: s.status }));
    if (records.length === 0 && before) records.push({ edition: before, status: 'opened' });
    return new EditionCatalog(records);
  }

  /** Every edition, oldest first (drafts included). */
  list(): EditionRecord[] {
    return [...this.byYear.values()];
  }

  /** The edition of `year`, if any. */
  get(year: number): EditionRecord | undefined {
    return this.byYear.get(year);
  }

  /**
   * The edition the site runs at `nowIso`: the latest announced (opened or closed) edition
   * whose registration day has come; null when there is none (no edition yet, or only
   * announced ones still to open). Editions never overlap (validate.ts), so this is the one
   * registrations and entries belong to while it accepts them.
   */
  current(nowIso: string): EditionRecord | null {
    let found: EditionRecord | null = null;
    for (const record of this.byYear.values()) {
      if (record.status === 'planned') continue;
      if (localDate(nowIso, record.edition.timeZone) >= record.edition.registrationOpens) found = record;
    }
    return found;
  }

  /** The next announced edition whose registration has not opened yet at `nowIso` (what the site announces between editions). */
  next(nowIso: string): EditionRecord | null {
    for (const record of this.byYear.values()) {
      if (record.status === 'opened' && lifePhase(record, nowIso) === 'upcoming') return record;
    }
    return null;
  }

  /**
   * The edition whose rules apply to what belongs to no edition (an account's password length):
   * the current one, else the latest announced one, else the latest draft; null for an empty catalogue.
   */
  latest(nowIso: string): EditionRecord | null {
    return this.current(nowIso) ?? this.list().filter((r) => r.status !== 'planned').at(-1) ?? this.list().at(-1) ?? null;
  }

  /** The closed editions, newest first (the archive). */
  archived(): EditionRecord[] {
    return this.list().filter((r) => r.status === 'closed').reverse();
  }
}
