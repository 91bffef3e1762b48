/**
 * Read-model migration 0002: the settings projection's one-row table (registration and
 * entry-insertion switches, on until a SettingsChanged says otherwise). Schema-scoped like every
 * read-model migration (see 0001-initial.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('registration_enabled', 'boolean', (c) => c.notNull())
    .addColumn('entry_insertion_enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.insertInto('settings' as never)
    .values({ id: 1, registration_enabled: true, entry_insertion_enabled: true } as never)
    .execute();
}

/** Drops the table and the settings checkpoint, so a later up reads the log again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('settings').execute();
  await db.deleteFrom('checkpoints' as never).where('projection' as never, '=', 'settings' as never).execute();
}
