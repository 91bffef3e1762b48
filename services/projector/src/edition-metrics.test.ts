/**
 * sinilill_current_edition_year from a log's edition events at the app's clock, without servers.
 */
import { describe, expect, test } from 'vitest';
import { Registry } from '@sinilill/http';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { CURRENT_EDITION_YEAR, registerEditionMetrics } from './edition-metrics';

type Event = { type: string; data: unknown };
const planned = (edition: typeof edition2025): Event => ({ type: 'EditionPlanned', data: { year: edition.year, edition, plannedAt: '2024-01-01T00:00:00Z' } });
const opened = (year: number): Event => ({ type: 'EditionOpened', data: { year, openedAt: '2024-01-01T00:00:00Z' } });
const closed = (year: number): Event => ({ type: 'EditionClosed', data: { year, closedAt: '2025-05-10T00:00:00Z' } });

/** The metric's value and phase in a scrape of a registry over `events` at `now`, or undefined when left out. */
async function scrape(events: Event[] | Error, now: string): Promise<{ year: number; phase: unknown } | undefined> {
  const registry = new Registry();
  const log = { readEvents: async () => { if (events instanceof Error) throw events; return events as never; } };
  const errors: unknown[] = [];
  registerEditionMetrics(registry, { log, now: () => new Date(now), onError: (error) => errors.push(error) });
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === CURRENT_EDITION_YEAR)!;
  if (events instanceof Error) expect(errors).toEqual([events]);
  expect(metric.values.length).toBeLessThanOrEqual(1);
  const [value] = metric.values;
  return value ? { year: value.value, phase: value.labels.phase } : undefined;
}

describe(CURRENT_EDITION_YEAR, () => {
  test('is the year of the edition current at the clock with its phase: 2025 closed until 2026 opens its registration, then 2026', async () => {
    const log = [planned(edition2025), opened(2025), closed(2025), planned(edition2026Demo), opened(2026)];
    expect(await scrape(log, '2026-02-15T10:00:00Z')).toEqual({ year: 2025, phase: 'closed' });
    expect(await scrape(log, '2026-03-10T10:00:00Z')).toEqual({ year: 2026, phase: 'registration' });
    expect(await scrape(log, '2026-04-10T10:00:00Z')).toEqual({ year: 2026, phase: 'running' });
  });

  test('is 0 (phase none) when no edition has begun (only a draft), and 2025 on a log from before editions', async () => {
    expect(await scrape([planned(edition2026Demo)], '2026-04-10T10:00:00Z')).toEqual({ year: 0, phase: 'none' });
    expect(await scrape([], '2025-04-20T10:00:00Z')).toEqual({ year: 2025, phase: 'running' });
  });

  test('is left out of a scrape whose read fails', async () => {
    expect(await scrape(new Error('database down'), '2025-04-20T10:00:00Z')).toBeUndefined();
  });
});
