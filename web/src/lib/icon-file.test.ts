import { describe, expect, it } from 'vitest';
import { checkIconFile, ICON_ACCEPT, ICON_MAX_BYTES } from './icon-file';

const MB = 1024 * 1024;

describe('team icon file checks (spec §5)', () => {
  it('accepts .jpg, .jpeg and .png of any case up to 5 MB', () => {
    expect(ICON_MAX_BYTES).toBe(5 * MB);
    expect(ICON_ACCEPT).toBe('.jpg,.jpeg,.png');
    for (const name of ['team.jpg', 'team.JPEG', 'Team.Png', 'a.b.png']) expect(checkIconFile({ name, size: 1000 })).toBeNull();
    expect(checkIconFile({ name: 'big.png', size: 5 * MB })).toBeNull();
  });

  it('refuses other extensions with NOT_ALLOWED_FILE_TYPE', () => {
    for (const name of ['team.gif', 'team.webp', 'team.svg', 'png', 'team.png.exe', 'team']) {
      expect(checkIconFile({ name, size: 1000 })).toBe('NOT_ALLOWED_FILE_TYPE');
    }
  });

  it('refuses files above 5 MB with MAX_IMAGE_SIZE', () => {
    expect(checkIconFile({ name: 'big.jpg', size: 5 * MB + 1 })).toBe('MAX_IMAGE_SIZE');
    expect(checkIconFile({ name: 'big.gif', size: 50 * MB })).toBe('NOT_ALLOWED_FILE_TYPE');
  });
});
