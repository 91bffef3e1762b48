import { describe, expect, it } from 'vitest';
import { mapActivityType } from './sport';

describe('mapActivityType', () => {
  it.each([
    ['running', null, 'OUTDOOR_RUN'],
    ['running', 'treadmill', 'INDOOR_RUN'],
    ['Biking', null, 'OUTDOOR_CYCLE'],
    ['cycling', 'indoorCycling', 'INDOOR_CYCLE'],
    ['walking', null, 'WALK'],
    ['hiking', null, 'WALK'],
    ['crossCountrySkiing', null, 'SKIING'],
    ['Cross-Country Skiing', null, 'SKIING'],
    ['swimming', 'lapSwimming', 'SWIMMING'],
    ['inlineSkating', null, 'ROLLERSKATING'],
  ] as const)('maps %s / %s to %s', (sport, subSport, expected) => {
    expect(mapActivityType(sport, subSport)).toBe(expected);
  });
  it.each(['Other', 'generic', '', null, undefined])('maps %j to null', (sport) => {
    expect(mapActivityType(sport)).toBeNull();
  });
});
