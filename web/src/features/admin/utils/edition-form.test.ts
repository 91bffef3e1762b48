import { editionProblems } from '@sinilill/domain';
import { edition2025, edition2026Demo } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import {
  centsToText,
  draftFromEdition,
  editionFromDraft,
  kmToText,
  moveYears,
  nextEditionDraft,
  parseEditionUpload,
  parseEuros,
  parseKmHundredths,
  parsePosition,
  routeFromDrafts,
  withView,
} from './edition-form';

describe('fees typed in the page locale', () => {
  it('reads euros with a decimal comma or point as whole cents', () => {
    expect(parseEuros('15,00')).toBe(1500);
    expect(parseEuros('15.5')).toBe(1550);
    expect(parseEuros('0,07')).toBe(7);
    expect(parseEuros('1 000')).toBe(100_000);
    expect(parseEuros('20')).toBe(2000);
  });

  it('refuses what is not an amount of euros and cents', () => {
    expect(parseEuros('')).toBeNull();
    expect(parseEuros('15,001')).toBeNull();
    expect(parseEuros('-5')).toBeNull();
    expect(parseEuros('15 €')).toBeNull();
    expect(parseEuros('1,000.50')).toBeNull();
  });

  it('writes cents with the page language’s decimal separator', () => {
    expect(centsToText(1500, 'et')).toBe('15,00');
    expect(centsToText(1500, 'en')).toBe('15.00');
    expect(parseEuros(centsToText(123_456, 'et'))).toBe(123_456);
  });
});

describe('km typed in the page locale', () => {
  it('reads km with at most two decimals as hundredths', () => {
    expect(parseKmHundredths('12,5')).toBe(1250);
    expect(parseKmHundredths('12.25')).toBe(1225);
    expect(parseKmHundredths('1 893')).toBe(189_300);
    expect(parseKmHundredths('4,200')).toBeNull();
    expect(parseKmHundredths('km')).toBeNull();
  });

  it('writes km without trailing zeros', () => {
    expect(kmToText(12.5, 'et')).toBe('12,5');
    expect(kmToText(12.25, 'en')).toBe('12.25');
    expect(kmToText(10, 'et')).toBe('10');
  });

  it('reads a map position as longitude and latitude', () => {
    expect(parsePosition('35.5, 33.9')).toEqual([35.5, 33.9]);
    expect(parsePosition('35,5; 33,9')).toEqual([35.5, 33.9]);
    expect(parsePosition('-3.7 40.4')).toEqual([-3.7, 40.4]);
    expect(parsePosition('35.5')).toBeNull();
    expect(parsePosition('north, east')).toBeNull();
  });
});

describe('the route table', () => {
  it('chains missions from their lengths, exact to the hundredth', () => {
    const draft = draftFromEdition(edition2025, 'et');
    const rows = draft.missions.slice(0, 3).map((m, i) => ({ ...m, km: ['0,1', '0,2', '12,35'][i]! }));
    const { route, problems } = routeFromDrafts(rows);
    expect(problems).toEqual([]);
    expect(route.missions.map((m) => [m.start, m.end, m.distance])).toEqual([[0, 0.1, 0.1], [0.1, 0.3, 0.2], [0.3, 12.65, 12.35]]);
    expect(route.lapLength).toBe(12.65);
  });

  it('names the row whose length or position is not a number', () => {
    const draft = draftFromEdition(edition2025, 'en');
    const rows = draft.missions.map((m, i) => (i === 3 ? { ...m, km: 'ten' } : i === 5 ? { ...m, position: 'here' } : m));
    expect(routeFromDrafts(rows).problems).toEqual([
      { code: 'EDITION_ROUTE_INVALID', field: 'route.missions[3].distance' },
      { code: 'EDITION_ROUTE_INVALID', field: 'route.missions[5].position' },
    ]);
  });
});

describe('the form and the edition', () => {
  it('gives back the edition it was filled from, in both languages', () => {
    for (const lang of ['et', 'en'] as const) {
      const built = editionFromDraft(draftFromEdition(edition2026Demo, lang));
      expect(built).toEqual({ ok: true, edition: JSON.parse(JSON.stringify(edition2026Demo)) });
    }
  });

  it('names every field that is not a number, with the code the server would answer', () => {
    const draft = draftFromEdition(edition2025, 'et');
    const built = editionFromDraft({ ...draft, year: '20x6', fees: { ...draft.fees, adultCents: '15,001' }, limits: { ...draft.limits, teamNameMax: '' }, moderation: '{' });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.problems).toEqual([
      { code: 'EDITION_INVALID', field: 'year' },
      { code: 'EDITION_FEE_INVALID', field: 'fees.adultCents' },
      { code: 'EDITION_INVALID', field: 'limits.teamNameMax' },
      { code: 'EDITION_INVALID', field: 'moderation' },
    ]);
  });

  it('sends draw rules only when written', () => {
    const draft = { ...draftFromEdition(edition2025, 'et'), drawRulesEt: 'Loositakse kümme auhinda.', drawRulesEn: 'Ten prizes are drawn.' };
    const built = editionFromDraft(draft);
    expect(built.ok && built.edition.drawRules).toEqual({ et: 'Loositakse kümme auhinda.', en: 'Ten prizes are drawn.' });
    const without = editionFromDraft({ ...draft, drawRulesEt: ' ', drawRulesEn: '' });
    expect(without.ok && 'drawRules' in without.edition).toBe(false);
  });
});

describe('the next edition', () => {
  it('moves dates by a year; 29 February becomes the 28th', () => {
    expect(moveYears('2025-04-01', 1)).toBe('2026-04-01');
    expect(moveYears('2026-05-05T17:00', 1)).toBe('2027-05-05T17:00');
    expect(moveYears('2028-02-29', 1)).toBe('2029-02-28');
    expect(moveYears('2027-02-29', 1)).toBe('2028-02-29');
  });

  it('pre-fills the year after the latest with its dates moved and its rules kept, and passes validation', () => {
    const draft = nextEditionDraft(edition2026Demo, 'et');
    expect(draft.year).toBe('2027');
    expect(draft.nameEt).toBe('Sinilill 2027');
    expect([draft.registrationOpens, draft.startDate, draft.endDate, draft.lateEntriesUntil, draft.prizeDraw])
      .toEqual(['2027-03-01', '2027-04-01', '2027-04-30', '2027-05-03', '2027-05-05T17:00']);
    const built = editionFromDraft(draft);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.edition.moderation).toEqual(edition2026Demo.moderation);
    expect(built.edition.route).toEqual(JSON.parse(JSON.stringify(edition2026Demo.route)));
    expect(editionProblems(built.edition)).toEqual([]);
  });
});

describe('an uploaded JSON file', () => {
  it('fills the whole form from an edition', () => {
    const result = parseEditionUpload(JSON.stringify(edition2026Demo), 'et');
    expect(result.ok && result.kind).toBe('edition');
    if (!result.ok || result.kind !== 'edition') return;
    expect(result.draft.fees.adultCents).toBe('20,00');
    expect(editionFromDraft(result.draft)).toEqual({ ok: true, edition: JSON.parse(JSON.stringify(edition2026Demo)) });
  });

  it('takes a route, or a bare list of missions, as the mission rows', () => {
    const route = parseEditionUpload(JSON.stringify(edition2025.route), 'en');
    expect(route.ok && route.kind === 'route' && route.missions.length).toBe(edition2025.route.missions.length);
    const list = parseEditionUpload(JSON.stringify(edition2025.route.missions.slice(0, 2)), 'en');
    expect(list.ok && list.kind === 'route' && list.missions.map((m) => m.nameEn)).toEqual(edition2025.route.missions.slice(0, 2).map((m) => m.name.en));
  });

  it('keeps a mission without its English name for the server to name', () => {
    const missions = edition2025.route.missions.map((m, i) => (i === 3 ? { ...m, name: { et: m.name.et } } : m));
    const result = parseEditionUpload(JSON.stringify({ ...edition2025.route, missions }), 'et');
    expect(result.ok && result.kind === 'route' && result.missions[3]!.nameEn).toBe('');
  });

  it('refuses a route whose start or end disagrees with the lengths, naming the field', () => {
    const missions = edition2025.route.missions.map((m, i) => (i === 2 ? { ...m, start: m.start + 1 } : m));
    expect(parseEditionUpload(JSON.stringify({ ...edition2025, route: { ...edition2025.route, missions } }), 'et'))
      .toEqual({ ok: false, problem: 'routeMismatch', field: 'route.missions[2].start' });
  });

  it('says when the file is not JSON or holds neither an edition nor a route', () => {
    expect(parseEditionUpload('{"year": 2026', 'et')).toEqual({ ok: false, problem: 'notJson' });
    expect(parseEditionUpload('{"teams": []}', 'et')).toEqual({ ok: false, problem: 'unknownShape' });
    expect(parseEditionUpload('42', 'et')).toEqual({ ok: false, problem: 'unknownShape' });
  });
});

describe('the list after a command', () => {
  it('replaces the edition of the same year, or adds it in year order', () => {
    const list = [{ year: 2025, status: 'opened' }, { year: 2027, status: 'planned' }];
    expect(withView(list, { year: 2025, status: 'closed' })).toEqual([{ year: 2025, status: 'closed' }, { year: 2027, status: 'planned' }]);
    expect(withView(list, { year: 2026, status: 'planned' }).map((v) => v.year)).toEqual([2025, 2026, 2027]);
  });
});
