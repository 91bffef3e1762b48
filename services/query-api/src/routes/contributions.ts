/**
 * "What this did" ("explain my score"): what an entry's latest event did to its
 * team, folded from the event log (entry-fold.ts) — the read models only find the entry and the
 * participant and decide access. Every route authenticates (401 UNAUTHORIZED).
 *
 * - GET /team/{id}/entries/{entryId}/contribution: a member of the team or an administrator (403
 *   FORBIDDEN otherwise, see team-access.ts); 404 NOT_FOUND when the team has no such live entry.
 * - GET /participant/{id}/contributions: the participant, their team mates or an administrator
 *   (403 FORBIDDEN for anyone else, whether or not the participant exists; an administrator
 *   asking for an unknown participant gets 404 NOT_FOUND).
 *
 * Cost: one indexed statement per request reads the team's entry events only
 * (contribution-query.ts), then one pass folds them. Answers are personal: `Cache-Control:
 * private, no-store`. Served only with the PostgreSQL store (the log is read by SQL, docs/decisions/0016).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import Type from 'typebox';
import { ContributionAnswer, ErrorAnswer, ParticipantContributionsAnswer } from '@sinilill/contracts';
import { DomainError, fromHundredths, isPrivileged } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import { teamDirectoryProjection, type ReadModelDatabase } from '@sinilill/read-models';
import { teamEntryEvents } from '../contribution-query';
import { entryContribution, entryContributions, latestEntryEvents } from '../entry-fold';
import { requireTeamAccess, type AccountParticipants } from '../team-access';
import type { ReadModelEditions } from '../editions';
import type { RouteDependencies } from '../dependencies';

export interface ContributionRouteOptions {
  /** Every participant of an account: a member of a past edition's team still reads it (team-access.ts). */
  accountParticipants?: AccountParticipants;
  db: Kysely<ReadModelDatabase>;
  /** The event log's filtered reads (the team's entry events). */
  log: Pick<EventStore, 'readEvents'>;
  /** The editions: what an entry did follows its team's own edition's route. */
  editions: ReadModelEditions;
  now: () => Date;
}

const Id = Type.String({ pattern: ID_PATTERN });
const refusals = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer };
/** The access checks and the entries read team-directory (team_members, team_entries). */
const DIRECTORY = { reads: [teamDirectoryProjection.name] };

export const contributionRoutes: FastifyPluginAsyncTypebox<ContributionRouteOptions> = async (app, { db, log, editions, now, accountParticipants }) => {
  /** The edition of team `teamId` (its own); NOT_FOUND without any edition. */
  const editionOf = async (teamId: number) => {
    const edition = await editions.ofTeam(teamId, now());
    if (!edition) throw new DomainError('NOT_FOUND', `edition of team ${teamId}`);
    return edition;
  };
  const rm = db.withSchema('rm');
  const guard = { onRequest: [app.authenticate] };
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  app.get('/team/:id/entries/:entryId/contribution', {
    ...guard,
    config: DIRECTORY,
    schema: { params: Type.Object({ id: Id, entryId: Id }), response: { 200: ContributionAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    const entryId = Number(request.params.entryId);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const entry = await rm.selectFrom('team_entries').select('entry_id')
      .where('team_id', '=', teamId).where('entry_id', '=', entryId).executeTakeFirst();
    if (!entry) throw new DomainError('NOT_FOUND', `entry ${entryId} of team ${teamId}`);
    const contribution = entryContribution(teamId, entryId, await teamEntryEvents(log, teamId), await editionOf(teamId));
    if (!contribution) throw new DomainError('NOT_FOUND', `events of entry ${entryId}`);
    return contribution;
  });

  app.get('/participant/:id/contributions', {
    ...guard,
    config: DIRECTORY,
    schema: { params: Type.Object({ id: Id }), response: { 200: ParticipantContributionsAnswer, ...refusals } },
  }, async (request) => {
    const participantId = Number(request.params.id);
    const member = await rm.selectFrom('team_members').select('team_id')
      .where('participant_id', '=', participantId).executeTakeFirst();
    if (!member) {
      // Nobody but an administrator learns whether a participant exists.
      throw new DomainError(isPrivileged(request.actor) ? 'NOT_FOUND' : 'FORBIDDEN', `participant ${participantId}`);
    }
    const teamId = member.team_id;
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const entries = await rm.selectFrom('team_entries').selectAll()
      .where('team_id', '=', teamId).where('participant_id', '=', participantId)
      .orderBy('created_at', 'desc').orderBy('entry_id', 'desc')
      .execute();
    const events = await teamEntryEvents(log, teamId);
    const latest = latestEntryEvents(events);
    const targets = new Set(entries.flatMap((e) => latest.get(e.entry_id) ?? []));
    const answers = entryContributions(teamId, events, targets, await editionOf(teamId));
    return {
      participantId,
      teamId,
      contributions: entries.flatMap((e) => {
        const contribution = answers.get(latest.get(e.entry_id) ?? -1);
        if (!contribution) return [];
        return [{ entryId: e.entry_id, distance: fromHundredths(e.distance_hundredths), entryType: e.entry_type, performedAt: e.performed_at, contribution }];
      }),
    };
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the event store: "what this did" reads the log too. */
export default routeFile(contributionRoutes, (deps: RouteDependencies) => (deps.history ? {
  db: deps.db, log: deps.history, editions: deps.editions, now: deps.now, ...(deps.accountParticipants ? { accountParticipants: deps.accountParticipants } : {}),
} : null));
