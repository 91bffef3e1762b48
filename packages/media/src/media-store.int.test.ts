/** MediaStore on a scratch PostgreSQL database: migration, content-addressed put, get. */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import sharp from 'sharp';
import { runMigrations } from '@sinilill/event-store';
import { createScratchDatabase } from '@sinilill/local-infra';
import { MediaStore } from './media-store';
import { mediaMigrations } from './migrations';
import { processTeamIcon } from './team-icon';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

describe('MediaStore', () => {
  let pool: pg.Pool;
  let media: MediaStore;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createScratchDatabase(inject('databaseServerUrl'), 'media'), max: 4 });
    const [report] = await runMigrations(pool, [mediaMigrations]);
    expect(report).toMatchObject({ adopted: [], applied: ['0001-images'] });
    media = new MediaStore(pool);
  });

  afterAll(async () => {
    await pool?.end();
  });

  test('migrating again, also from several callers at once, applies nothing', async () => {
    const reports = await Promise.all([runMigrations(pool, [mediaMigrations]), runMigrations(pool, [mediaMigrations])]);
    expect(reports.flat().map((r) => r.applied)).toEqual([[], []]);
  });

  test('put names an image by the SHA-256 of its bytes and get gives it back', async () => {
    const image = await processTeamIcon(await sharp({ create: { width: 50, height: 30, channels: 3, background: '#3a6' } }).png().toBuffer());
    const stored = await media.put(image);
    expect(stored.name).toMatch(/^[0-9a-f]{64}\.webp$/);
    expect(stored.url).toBe(`/api/images/${stored.name}`);
    const read = await media.get(stored.name);
    expect(read).toMatchObject({ name: stored.name, contentType: 'image/webp', width: 256, height: 256, createdAt: expect.any(Date) });
    expect(read!.bytes.equals(image.bytes)).toBe(true);
  });

  test('storing the same bytes again is idempotent: same name, one row, first time kept', async () => {
    const image = await processTeamIcon(await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123' } }).jpeg().toBuffer());
    const first = await media.put(image);
    const before = await media.get(first.name);
    const [again, concurrent] = await Promise.all([media.put(image), media.put({ ...image, bytes: Buffer.from(image.bytes) })]);
    expect(again).toEqual(first);
    expect(concurrent).toEqual(first);
    const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM media.images WHERE name = $1', [first.name]);
    expect(rows[0]!.count).toBe('1');
    expect((await media.get(first.name))!.createdAt).toEqual(before!.createdAt);
  });

  test('get answers null for an unknown name and for anything not shaped like a name', async () => {
    expect(await media.get(`${'0'.repeat(64)}.webp`)).toBeNull();
    expect(await media.get("x'; DROP TABLE media.images; --")).toBeNull();
    expect(await media.get(`${'A'.repeat(64)}.webp`)).toBeNull();
  });
});
