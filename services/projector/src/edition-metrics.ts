/**
 * The edition the site runs, as a metric of the projector's /metrics:
 * `sinilill_current_edition_year{phase}`, the year of EditionCatalog.current at the app's clock
 * (the edition registrations and entries belong to) with its life phase (lifePhase: registration,
 * running, lateEntries, final, closed); `{phase="none"} 0` when none has begun (only a draft, or
 * an announced edition whose registration has not opened). A dashboard shows the life cycle's
 * turns (a new edition taking over, an edition closed) beside the lag.
 *
 * Read at scrape time from the log's `edition-*` streams (a handful of events a year), bounded by
 * `timeoutMs`; a failed read leaves the series out of that scrape. A log without edition events
 * is one written before editions were data: its edition (2025) counts as opened
 * (EditionCatalog.fromEvents with EDITION_OF_EVENTS_BEFORE_EDITIONS), as on the command side.
 */
import { EditionCatalog, lifePhase } from '@sinilill/domain';
import { EDITION_OF_EVENTS_BEFORE_EDITIONS } from '@sinilill/domain/seed';
import type { EventStore } from '@sinilill/event-store';
import { Gauge, withTimeout, type Registry } from '@sinilill/http';

/** The metric's name. */
export const CURRENT_EDITION_YEAR = 'sinilill_current_edition_year';

export interface EditionMetricsOptions {
  /** The event store (its `edition` category). */
  log: Pick<EventStore, 'readEvents'>;
  /** The app's clock (CLOCK, CLOCK_START: the simulated clock moves the edition too). */
  now: () => Date;
  /** Bound of the scrape-time read, ms (default 1000). */
  timeoutMs?: number;
  /** Told when the read fails (the series is left out of that scrape). */
  onError?: (error: unknown) => void;
}

/** The year and life phase of the edition current at `now` in the log's editions; year 0, phase 'none' when none. */
export async function currentEdition(log: Pick<EventStore, 'readEvents'>, now: Date): Promise<{ year: number; phase: string }> {
  const catalog = EditionCatalog.fromEvents(await log.readEvents({ category: 'edition' }), EDITION_OF_EVENTS_BEFORE_EDITIONS);
  const current = catalog.current(now.toISOString());
  return current ? { year: current.edition.year, phase: lifePhase(current, now.toISOString()) } : { year: 0, phase: 'none' };
}

/** Registers `sinilill_current_edition_year{phase}` in `registry`; call once per registry. */
export function registerEditionMetrics(registry: Registry, options: EditionMetricsOptions): void {
  const gauge = new Gauge({
    name: CURRENT_EDITION_YEAR,
    help: "Year of the edition the site runs at the app's clock (registrations and entries belong to it), by its life phase; 0 (phase none): none has begun",
    labelNames: ['phase'] as const,
    registers: [registry],
    async collect() {
      try {
        const { year, phase } = await withTimeout(currentEdition(options.log, options.now()), options.timeoutMs ?? 1000);
        gauge.reset();
        gauge.set({ phase }, year);
      } catch (error) {
        gauge.reset();
        options.onError?.(error);
      }
    },
  });
}
