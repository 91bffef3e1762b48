/**
 * Media migration 0001: schema `media` and its table of stored images (see media-store.ts).
 * Under the hand-rolled runner this was version 1 of the hand-rolled runner (`media.schema_migrations`);
 * the event store's runner adopts such databases.
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 * No `down`: events name these images, and their bytes are kept nowhere else.
 */
import { sql, type Kysely } from 'kysely';

const SQL = /* sql */ `
      CREATE SCHEMA IF NOT EXISTS media;
      CREATE TABLE media.images (
        name         text PRIMARY KEY,
        content_type text NOT NULL,
        bytes        bytea NOT NULL,
        width        integer NOT NULL,
        height       integer NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
`;

/** Creates `media.images`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
