import world110m from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import { atlasJson, buildAtlas, type WorldTopology } from './atlas-source';
import { regions } from './regions.json';

describe('atlas.json', () => {
  it('is what atlas-source.ts makes of world-atlas and regions.json (`vitest -u` writes it anew)', async () => {
    const atlas = buildAtlas(world110m as unknown as WorldTopology, Object.values(regions));
    await expect(atlasJson(atlas)).toMatchFileSnapshot('./atlas.json');
  });
});
