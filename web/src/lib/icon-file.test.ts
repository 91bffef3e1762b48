import { edition2025 } from '@sinilill/domain/seed';
import { describe, expect, it } from 'vitest';
import { checkIconFile, ICON_ACCEPT } from './icon-file';

const MB = 1024 * 1024;
/** The 2025 edition's image limit (5 MB). */
const ICON_MAX_BYTES = edition2025.limits.imageMaxBytes;

describe('team icon file checks (spec §5)', () => {
  it('accepts .jpg, .jpeg and .png of any case up to 5 MB', () => {
    expect(ICON_MAX_BYTES).toBe(5 * MB);
    expect(ICON_ACCEPT).toBe('.jpg,.jpeg,.png');
    for (const name of ['team.jpg', 'team.JPEG', 'Team.Png', 'a.b.png']) expect(checkIconFile({ name, size: 1000 }, ICON_MAX_BYTES)).toBeNull();
    expect(checkIconFile({ name: 'big.png', size: 5 * MB }, ICON_MAX_BYTES)).toBeNull();
  });

  it('refuses other extensions with NOT_ALLOWED_FILE_TYPE', () => {
    for (const name of ['team.gif', 'team.webp', 'team.svg', 'png', 'team.png.exe', 'team']) {
      expect(checkIconFile({ name, size: 1000 }, ICON_MAX_BYTES)).toBe('NOT_ALLOWED_FILE_TYPE');
    }
  });

  it('refuses files above 5 MB with MAX_IMAGE_SIZE', () => {
    expect(checkIconFile({ name: 'big.jpg', size: 5 * MB + 1 }, ICON_MAX_BYTES)).toBe('MAX_IMAGE_SIZE');
    expect(checkIconFile({ name: 'big.gif', size: 50 * MB }, ICON_MAX_BYTES)).toBe('NOT_ALLOWED_FILE_TYPE');
  });

  it('follows the limit of the edition, and leaves the size to the server while it is unknown', () => {
    expect(checkIconFile({ name: 'big.jpg', size: 2 * MB }, 1 * MB)).toBe('MAX_IMAGE_SIZE');
    expect(checkIconFile({ name: 'big.jpg', size: 50 * MB }, null)).toBeNull();
  });
});
