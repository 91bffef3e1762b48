/**
 * GET /api/settings: the global switches (spec §4) the client needs, e.g. to show /register, and
 * whether entries are open now (the switch and the late-entry deadline, by the server's clock).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { SettingsAnswer } from '@sinilill/contracts';
import { currentEdition, isEntryWindowOpen } from '@sinilill/domain';
import type { ReadModelDatabase } from '@sinilill/read-models';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<ReadModelDatabase>; now: () => Date }> = async (app, { db, now }) => {
  app.get('/settings', { schema: { response: { 200: SettingsAnswer } } }, async () => {
    const row = await db.withSchema('rm').selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
    const entryInsertionEnabled = row?.entry_insertion_enabled ?? true;
    return {
      registrationEnabled: row?.registration_enabled ?? true,
      entryInsertionEnabled,
      entriesOpen: entryInsertionEnabled && isEntryWindowOpen(now().toISOString(), currentEdition),
    };
  });
};
