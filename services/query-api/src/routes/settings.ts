/**
 * GET /api/settings: the global switches (spec §4) the client needs, e.g. to show /register, and
 * whether entries are open now (the switch and the late-entry deadline of the edition the site
 * answers for, editions.ts, by the server's clock; a closed edition takes none).
 *
 * Public and the same for everyone: cached per position of the settings projection and per state
 * of the entry window (answer-cache.ts), with an ETag.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { SettingsAnswer } from '@sinilill/contracts';
import { isEntryWindowOpen } from '@sinilill/domain';
import { settingsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { AnswerCache } from '../answer-cache';
import type { ReadModelEditions } from '../editions';
import { routeFile } from '@sinilill/http';
import type { RouteDependencies } from '../dependencies';

export interface SettingsRouteOptions {
  db: Kysely<ReadModelDatabase>;
  now: () => Date;
  /** The process's cache of public answers. */
  answers: AnswerCache;
  editions: ReadModelEditions;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRouteOptions> = async (app, { db, now, answers, editions }) => {
  app.get('/settings', {
    config: { reads: [settingsProjection.name] },
    compress: false,
    schema: { response: { 200: SettingsAnswer } },
  }, async (request, reply) => {
    // The clock enters the answer only through this flag: it is part of the key.
    const at = now();
    const edition = await editions.answering(at);
    const windowOpen = edition !== null && edition.status === 'opened' && isEntryWindowOpen(at.toISOString(), edition.edition);
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

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(settingsRoutes, (deps: RouteDependencies) => ({ db: deps.db, now: deps.now, answers: deps.answers, editions: deps.editions }));
