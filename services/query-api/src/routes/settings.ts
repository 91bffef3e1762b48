/**
 * GET /api/settings: the global switches (spec §4) the client needs, e.g. to show /register, and
 * whether entries are open now (the switch and the late-entry deadline, by the server's clock).
 *
 * Public and the same for everyone: cached per position of the settings projection and per state
 * of the entry window (answer-cache.ts), with an ETag.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { SettingsAnswer } from '@sinilill/contracts';
import { currentEdition, isEntryWindowOpen } from '@sinilill/domain';
import { settingsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache } from '../answer-cache';

export interface SettingsRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  /** The process's cache of public answers. */
  answers: AnswerCache;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRouteOptions> = async (app, { db, now, answers }) => {
  app.get('/settings', {
    config: { reads: [settingsProjection.name] },
    compress: false,
    schema: { response: { 200: SettingsAnswer } },
  }, async (request, reply) => {
    // The clock enters the answer only through this flag: it is part of the key.
    const windowOpen = isEntryWindowOpen(now().toISOString(), currentEdition);
    return answers.serve(request, reply, `settings:${windowOpen ? 'open' : 'closed'}`, async () => {
      const row = await db.withSchema('rm').selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
      const entryInsertionEnabled = row?.entry_insertion_enabled ?? true;
      return {
        registrationEnabled: row?.registration_enabled ?? true,
        entryInsertionEnabled,
        entriesOpen: entryInsertionEnabled && windowOpen,
      };
    });
  });
};
