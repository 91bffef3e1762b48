import { currentEdition } from '@sinilill/domain';
import { describe, expect, it } from 'vitest';
import atlasData from './atlas.json';
import { atlasCountryNames } from './geo';
import { regionFor, regionKeys } from './regions';

describe('regionFor', () => {
  it('knows every mission region of the current route', () => {
    const missing = currentEdition.route.missions.filter((mission) => !regionFor(mission.name.en)).map((m) => m.name.en);
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
