/**
 * Stored images, outside the event log: an event names an image by its URL path
 * (`/api/images/<sha256>.webp`), never carries its bytes, so the log stays small and a replay
 * never decodes pictures.
 *
 * | table | holds |
 * |---|---|
 * | media.images(name pk, content_type, bytes, width, height, created_at) | one processed image per content hash |
 *
 * Names are content addresses (SHA-256 of the stored bytes, hex, plus `.webp`): storing the same
 * picture twice stores it once, a name never changes meaning, so the query API serves it as
 * immutable. Images are never deleted here: past events keep naming them (an old icon stays
 * reachable, which is harmless: team icons are public).
 *
 * The table is made by migrations/0001-images.ts.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ProcessedImage } from './team-icon';

/** Where the query API serves stored images (the gateway routes GET /api/* there). */
export const IMAGE_URL_PREFIX = '/api/images/';

/** A stored image's name: 64 lower-case hex digits of SHA-256, then `.webp`. */
export const IMAGE_NAME_PATTERN = '^[0-9a-f]{64}\\.webp$';
const IMAGE_NAME = new RegExp(IMAGE_NAME_PATTERN);

/** True when `name` has the shape of a stored image's name (it may still be unknown). */
export function isImageName(name: string): boolean {
  return IMAGE_NAME.test(name);
}

/** The URL path of a stored image: `/api/images/<name>`. */
export function imageUrl(name: string): string {
  return `${IMAGE_URL_PREFIX}${name}`;
}

/** A stored image as read back. */
export interface StoredImage extends ProcessedImage {
  name: string;
  createdAt: Date;
}

/** The images table (schema `media`, see migrations/0001-images.ts). */
export class MediaStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Stores a processed image under its content address. Idempotent: the same bytes give the same
   * name, and storing them again changes nothing (the first created_at stays).
   * @returns `name` (`<sha256 hex>.webp`) and `url`, the path to put in events and answers
   *   (`/api/images/<name>`).
   */
  async put(image: ProcessedImage): Promise<{ name: string; url: string }> {
    const name = `${createHash('sha256').update(image.bytes).digest('hex')}.webp`;
    await this.pool.query(
      `INSERT INTO media.images (name, content_type, bytes, width, height) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name) DO NOTHING`,
      [name, image.contentType, image.bytes, image.width, image.height],
    );
    return { name, url: imageUrl(name) };
  }

  /**
   * The image stored under `name`, or null when there is none (including any name that does not
   * have the shape IMAGE_NAME_PATTERN: such a name is never looked up).
   */
  async get(name: string): Promise<StoredImage | null> {
    if (!isImageName(name)) return null;
    const { rows } = await this.pool.query<{ content_type: string; bytes: Buffer; width: number; height: number; created_at: Date }>(
      'SELECT content_type, bytes, width, height, created_at FROM media.images WHERE name = $1',
      [name],
    );
    const row = rows[0];
    if (!row) return null;
    return { name, contentType: row.content_type as 'image/webp', bytes: row.bytes, width: row.width, height: row.height, createdAt: row.created_at };
  }
}
