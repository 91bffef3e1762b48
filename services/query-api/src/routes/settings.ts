/** GET /api/settings: the global switches (spec §4) the client needs, e.g. to show /register. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { SettingsAnswer } from '@sinilill/contracts';
import type { ReadModelDatabase } from '@sinilill/read-models';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<ReadModelDatabase> }> = async (app, { db }) => {
  app.get('/settings', { schema: { response: { 200: SettingsAnswer } } }, async () => {
    const row = await db.withSchema('rm').selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
    return {
      registrationEnabled: row?.registration_enabled ?? true,
      entryInsertionEnabled: row?.entry_insertion_enabled ?? true,
    };
  });
};
