import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import atlasData from './atlas.json';
import { atlasCountryNames } from './geo';
import { mapRegions, regionFor, regionKeys } from './regions';

describe('regionFor', () => {
  it('knows every mission region of the current route', () => {
    const missing = edition2025.route.missions.filter((mission) => !regionFor(mission.name.en)).map((m) => m.name.en);
    expect(missing).toEqual([]);
  });

  it('names only countries that the 1:110m atlas (atlas.json) has', () => {
    const atlas = new Set(atlasCountryNames(atlasData));
    const unknown = regionKeys().flatMap((key) => regionFor(key)!.countries.filter((name) => !atlas.has(name)));
    expect(unknown).toEqual([]);
  });

  it('gives sea regions a circle instead of countries', () => {
    expect(regionFor('Gulf of Aden')).toMatchObject({ countries: [], seaRadius: expect.any(Number) });
    expect(regionFor('Mediterranean Sea')).toMatchObject({ countries: [], seaRadius: expect.any(Number) });
    expect(regionFor('Kosovo')).toEqual({ key: 'Kosovo', countries: ['Kosovo'], anchor: [20.9, 42.6] });
  });

  it('is undefined for an unknown region, including inherited property names', () => {
    expect(regionFor('Atlantis')).toBeUndefined();
    expect(regionFor('toString')).toBeUndefined();
  });
});

describe('mapRegions', () => {
  it('places a mission by its position when given, keeping its known region\'s countries', () => {
    expect(mapRegions([{ region: 'Kosovo', position: [21, 42] }])).toEqual([{ key: 'Kosovo', countries: ['Kosovo'], anchor: [21, 42] }]);
    expect(mapRegions([{ region: 'Tartu', position: [26.7, 58.4] }])).toEqual([{ key: 'Tartu', countries: [], anchor: [26.7, 58.4] }]);
  });

  it('places a mission without a position by its name, and leaves out one with neither', () => {
    expect(mapRegions([{ region: 'Kosovo' }, { region: 'Atlantis' }])).toEqual([regionFor('Kosovo')]);
    expect(mapRegions([{ region: 'Atlantis' }, { region: 'Nowhere', position: [Number.NaN, 1] }])).toEqual([]);
    expect(mapRegions([])).toEqual([]);
  });

  it('keeps one region per name, the first mission\'s', () => {
    expect(mapRegions([{ region: 'Kosovo', position: [1, 2] }, { region: 'Kosovo', position: [3, 4] }])).toHaveLength(1);
  });
});
