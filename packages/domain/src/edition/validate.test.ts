import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { edition2025, edition2026Demo } from './seed';
import type { Edition } from './types';
import { assertValidEdition, editionProblems } from './validate';

/** A writable copy of the demo 2026 edition with `change` applied. */
function edition2026(change: (e: Edition) => void = () => undefined): Edition {
  const copy = JSON.parse(JSON.stringify(edition2026Demo)) as Edition;
  change(copy);
  return copy;
}
const first = (data: unknown) => editionProblems(data)[0];

describe('editionProblems', () => {
  it('finds nothing wrong with the seed editions', () => {
    expect(editionProblems(edition2025)).toEqual([]);
    expect(editionProblems(edition2026Demo)).toEqual([]);
  });

  it('refuses what is not an edition at all (EDITION_INVALID)', () => {
    expect(editionProblems(null)).toEqual([{ code: 'EDITION_INVALID', field: '', detail: expect.any(String) }]);
    expect(first([edition2026Demo])?.code).toBe('EDITION_INVALID');
  });

  it('names a missing or wrong field: year, name in each language, time zone, limits, flowers, moderation', () => {
    expect(first(edition2026((e) => { (e as { year: unknown }).year = '2026'; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'year' });
    expect(first(edition2026((e) => { e.name.en = ''; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'name.en' });
    expect(first(edition2026((e) => { e.timeZone = 'Europe/Atlantis'; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'timeZone' });
    expect(first(edition2026((e) => { e.limits.teamNameMax = -1; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'limits.teamNameMax' });
    expect(first(edition2026((e) => { (e.flowers as { base: unknown }).base = 'one'; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'flowers.base' });
    expect(first(edition2026((e) => { (e.moderation as { duplicates: unknown }).duplicates = 'yes'; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'moderation.duplicates' });
    expect(first(edition2026((e) => { e.drawRules = { et: 'Loosireeglid', en: '' }; }))).toMatchObject({ code: 'EDITION_INVALID', field: 'drawRules' });
  });

  it('refuses dates that are not real days, not of the year, or out of order (EDITION_DATES_INVALID)', () => {
    expect(first(edition2026((e) => { e.startDate = '2026-02-30'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'startDate' });
    expect(first(edition2026((e) => { e.prizeDraw = '2026-05-05 17:00'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'prizeDraw' });
    expect(first(edition2026((e) => { e.startDate = '2027-04-01'; e.endDate = '2027-04-30'; e.lateEntriesUntil = '2027-05-03'; e.prizeDraw = '2027-05-05T17:00'; })))
      .toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'startDate' });
    expect(first(edition2026((e) => { e.registrationOpens = '2026-04-02'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'registrationOpens' });
    expect(first(edition2026((e) => { e.endDate = '2026-03-31'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'endDate' });
    expect(first(edition2026((e) => { e.lateEntriesUntil = '2026-04-29'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'lateEntriesUntil' });
    expect(first(edition2026((e) => { e.prizeDraw = '2026-05-03T17:00'; }))).toMatchObject({ code: 'EDITION_DATES_INVALID', field: 'prizeDraw' });
    // The same day for registration and start, and for the last day and the deadline, is allowed.
    expect(editionProblems(edition2026((e) => { e.registrationOpens = '2026-04-01'; e.lateEntriesUntil = '2026-04-30'; }))).toEqual([]);
  });

  it('refuses fees that are not whole cents from 0, a donation minimum under a cent, a default under the minimum (EDITION_FEE_INVALID)', () => {
    expect(first(edition2026((e) => { e.fees.adultCents = -100; }))).toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees.adultCents' });
    expect(first(edition2026((e) => { e.fees.childCents = 2.5; }))).toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees.childCents' });
    expect(first(edition2026((e) => { e.fees.donationMinCents = 0; }))).toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees.donationMinCents' });
    expect(first(edition2026((e) => { e.fees.donationDefaultCents = 50; }))).toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees.donationDefaultCents' });
    expect(first(edition2026((e) => { (e as { fees: unknown }).fees = undefined; }))).toMatchObject({ code: 'EDITION_FEE_INVALID', field: 'fees' });
    expect(editionProblems(edition2026((e) => { e.fees.adultCents = 0; e.fees.childCents = 0; }))).toEqual([]);
  });

  it('names the mission whose name is missing in either language (EDITION_MISSION_NAME_MISSING)', () => {
    expect(first(edition2026((e) => { e.route.missions[3]!.name.en = ' '; }))).toEqual({ code: 'EDITION_MISSION_NAME_MISSING', field: 'route.missions[3].name.en', detail: expect.stringContaining('English') });
    expect(first(edition2026((e) => { e.route.missions[0]!.name.et = ''; }))).toMatchObject({ code: 'EDITION_MISSION_NAME_MISSING', field: 'route.missions[0].name.et' });
  });

  it('refuses a route with missions out of order, a gap, a wrong lap length or a bad marker position (EDITION_ROUTE_INVALID)', () => {
    expect(first(edition2026((e) => { e.route.missions.reverse(); }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route' });
    expect(first(edition2026((e) => { e.route.missions[1]!.start += 1; e.route.missions[1]!.distance -= 1; }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route' });
    expect(first(edition2026((e) => { e.route.lapLength += 1; }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route' });
    expect(first(edition2026((e) => { e.route.missions[2]!.position = [200, 10]; }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route.missions[2].position' });
    expect(first(edition2026((e) => { (e.route.missions[2] as { end: unknown }).end = '180'; }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route.missions[2].end' });
    expect(first(edition2026((e) => { (e as { route: unknown }).route = { lapLength: 10 }; }))).toMatchObject({ code: 'EDITION_ROUTE_INVALID', field: 'route' });
  });

  it('lists every problem in reading order, not only the first', () => {
    const problems = editionProblems(edition2026((e) => { e.name.et = ''; e.fees.adultCents = -1; e.route.missions[1]!.name.en = ''; }));
    expect(problems.map((p) => p.field)).toEqual(['name.et', 'fees.adultCents', 'route.missions[1].name.en']);
  });
});

describe('assertValidEdition', () => {
  it('answers the edition when it is valid and overlaps no other', () => {
    expect(assertValidEdition(edition2026Demo, [edition2025])).toBe(edition2026Demo);
  });

  it('throws the first problem with its field as the detail', () => {
    const error = (() => {
      try {
        assertValidEdition(edition2026((e) => { e.fees.adultCents = -1; }), []);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'EDITION_FEE_INVALID', detail: 'fees.adultCents' });
  });

  it("refuses an edition sharing a day (registration to late entries) with another (EDITION_DATES_OVERLAP); its own year's is no other", () => {
    const touching = edition2026((e) => { e.registrationOpens = '2025-05-03'; });
    expect(() => assertValidEdition(touching, [edition2025])).toThrow(expect.objectContaining({ code: 'EDITION_DATES_OVERLAP', detail: 'registrationOpens' }));
    expect(assertValidEdition(edition2026((e) => { e.registrationOpens = '2025-05-04'; }), [edition2025]).year).toBe(2026);
    expect(assertValidEdition(edition2026Demo, [edition2026Demo]).year).toBe(2026);
  });
});
