/**
 * The edition's events (stream `edition-{year}`): an edition is planned, changed while it is not
 * closed, opened to the public (its registration then opens on its own date) and closed once
 * its results are final (read-only from then on, kept in the archive).
 */
import type { Edition } from './types';

/** An admin (or the importer, SYSTEM) planned an edition: all of its data, valid (validate.ts). */
export interface EditionPlanned {
  type: 'EditionPlanned';
  data: { year: number; edition: Edition; plannedAt: string };
}

/** The edition's data was replaced by a new, valid version (the whole edition, not a patch). */
export interface EditionChanged {
  type: 'EditionChanged';
  data: { year: number; edition: Edition; changedAt: string };
}

/**
 * The edition was announced: the public sees it, and its registration opens on
 * `edition.registrationOpens` (not before).
 */
export interface EditionOpened {
  type: 'EditionOpened';
  data: { year: number; openedAt: string };
}

/** The edition ended: its results are final and it is read-only (the archive keeps it). */
export interface EditionClosed {
  type: 'EditionClosed';
  data: { year: number; closedAt: string };
}

export type EditionEvent = EditionPlanned | EditionChanged | EditionOpened | EditionClosed;
