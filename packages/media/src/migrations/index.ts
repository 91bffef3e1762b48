/**
 * The stored images' migrations (schema `media`), one file each, listed here by name: a static
 * provider, so the bundled services carry them.
 */
import { legacyVersions, type MigrationSet } from '@sinilill/event-store';
import * as images from './0001-images';

/**
 * Schema `media`: the images table. Run it through the CLI's migrateToLatest, or
 * `runMigrations(pool, [mediaMigrations])`.
 */
export const mediaMigrations: MigrationSet = {
  name: 'media',
  schema: 'media',
  migrations: {
    '0001-images': images,
  },
  // The old runner's version 1 of media.schema_migrations is 0001-images.
  legacy: async (db) => ((await legacyVersions(db, 'media.schema_migrations')).includes(1) ? ['0001-images'] : []),
};
