/**
 * Read-model migration 0011: PostgreSQL's `unaccent` extension, with which the query API's
 * table searches fold diacritics ("voru" finds "Võru", "sokolaad" finds "Šokolaad"; table-pages.ts
 * `ilike`). The extension is the database's, not a schema's: it is created once in `public`
 * (IF NOT EXISTS, so the rebuild of a replay's `rm_next` finds it there) and the searches name it
 * as `public.unaccent`. It ships with the embedded PostgreSQL and the official images, and is a
 * trusted extension (PostgreSQL 13 and later): the database's owner may create it. A server
 * without it stops here with that message rather than searching without the folding.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const available = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = 'unaccent'`.execute(db);
  if (available.rows.length === 0) {
    throw new Error('read-model migration 0011: PostgreSQL has no extension "unaccent" (contrib not installed); searches cannot fold diacritics');
  }
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public`.execute(db);
}

/** Nothing: the extension may serve the other read-model schema (rm or rm_next) too. */
export async function down(): Promise<void> {}
