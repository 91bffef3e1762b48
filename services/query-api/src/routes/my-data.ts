/**
 * "My data": GET /me/data (JSON; `?format=csv`) and GET /me/data.csv — the
 * caller's own data as a download (contracts my-data.ts). Only the token's account: an
 * administrator without a participant gets their account and their account's events.
 *
 * Read from the event log, like the admin history (docs/decisions/0016): the log holds everything the app keeps
 * about a person (the read models are copies of parts of it), decrypted for them. Two passes over
 * the person's events up to the log's head when the download began: the first folds the sections
 * (one state per entry and order), the second streams the events themselves, a batch at a time,
 * so a long history never sits in memory whole. The team's name comes from the read models.
 *
 * Not rate-limited: the query API has no rate limiting (only the command API's account routes
 * have, docs/decisions/0024); the download needs a live session and costs a few index scans.
 */
import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorAnswer, MY_DATA_CSV_COLUMNS, MyDataCsvQuery, MyDataQuery, fromSpecLanguage, myDataFileName, type Language } from '@sinilill/contracts';
import { DomainError, accountDecider, isUserId, localDate, streams } from '@sinilill/domain';
import type { EventStore } from '@sinilill/event-store';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { MyDataFolder, eventRow, sectionRows, toMyEvent } from '../my-data-fold';
import { MyDataReader, type Person } from '../my-data-query';
import { routeFile } from '@sinilill/http';
import type { ReadModelEditions } from '../editions';
import type { RouteDependencies } from '../dependencies';

export interface MyDataRouteOptions {
  /** The editions: the file name's day is the current edition's local day. */
  editions: ReadModelEditions;
  db: Kysely<ReadModelDatabase>;
  /** The protected store (decrypts; its head bounds a download), without a key cache (docs/decisions/0016). */
  store: EventStore;
  now: () => Date;
}

const refusals = { 400: ErrorAnswer, 401: ErrorAnswer, 404: ErrorAnswer };

export const myDataRoutes: FastifyPluginAsyncTypebox<MyDataRouteOptions> = async (app, { db, store, now, editions }) => {
  const reader = new MyDataReader(store);

  const download = (format: 'json' | 'csv', lang: Language) => async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = request.actor.userId;
    if (!isUserId(userId)) throw new DomainError('UNAUTHORIZED', 'not an account');
    // A fixed end: the download shows the log as it stood when it began, and ends.
    const until = await store.headPosition();
    const account = (await store.readStream(streams.user(userId))).reduce(
      (state, event) => accountDecider.evolve(state, { type: event.type, data: event.data } as Parameters<typeof accountDecider.evolve>[1]),
      accountDecider.initialState(),
    );
    if (!account.exists || account.deleted) throw new DomainError('NOT_FOUND', `user ${userId}`);
    const person: Person = { userId, participantId: account.participantId, participantIds: account.participantIds };
    const found = await reader.streamsOf(person, until);
    const folder = new MyDataFolder();
    for await (const event of reader.all(person, found, until)) folder.add(event);
    const teamId = folder.teamId;
    const team = teamId === null ? undefined
      : await db.withSchema('rm').selectFrom('team_stats').select('team_name').where('team_id', '=', teamId).executeTakeFirst();
    const sections = {
      account: folder.accountSection(userId),
      participant: folder.participantSection(team?.team_name ?? null),
      entries: folder.entrySection(),
      payments: folder.paymentSection(),
    };
    const generatedAt = now();
    const zone = (await editions.answering(generatedAt))?.edition.timeZone ?? 'Europe/Tallinn';
    const name = myDataFileName(localDate(generatedAt.toISOString(), zone), format, lang);
    reply.header('content-disposition', `attachment; filename="${name}"`);
    reply.header('cache-control', 'no-store');
    const events = reader.all(person, found, until);
    if (format === 'json') {
      reply.type('application/json; charset=utf-8');
      return reply.send(Readable.from((async function* () {
        const head = JSON.stringify({ generated_at: generatedAt.toISOString(), ...sections, events: [] });
        // Everything but the closing `]}` of the empty events array, then the events one by one.
        yield head.slice(0, -2);
        let first = true;
        for await (const event of events) {
          yield `${first ? '' : ','}\n${JSON.stringify(toMyEvent(event))}`;
          first = false;
        }
        yield '\n]}\n';
      })()));
    }
    const rows = Readable.from((async function* () {
      yield* sectionRows(sections.account, sections.participant, sections.entries, sections.payments);
      for await (const event of events) yield eventRow(toMyEvent(event));
    })());
    const csv = stringify({ header: true, columns: [...MY_DATA_CSV_COLUMNS], cast: { boolean: (value) => (value ? 'true' : 'false') } });
    // pipeline, not pipe: a failed query must end the download (truncated, visibly), not hang it.
    pipeline(rows, csv, (error) => {
      if (error) request.log.error({ err: error }, 'my data download failed');
    });
    reply.type('text/csv; charset=utf-8');
    return reply.send(csv);
  };

  const guard = { onRequest: [app.authenticate] };
  app.get('/me/data', {
    ...guard,
    // No response schema: the body is a stream; refusals go through the shared error handler.
    schema: { querystring: MyDataQuery, response: refusals },
  }, async (request, reply) => download(request.query.format ?? 'json', fromSpecLanguage(request.query.lang ?? 'est'))(request, reply));
  // The file is named in the page's language (`?lang=eng`), as the JSON route's.
  app.get('/me/data.csv', {
    ...guard, schema: { querystring: MyDataCsvQuery, response: refusals },
  }, async (request, reply) => download('csv', fromSpecLanguage(request.query.lang ?? 'est'))(request, reply));
};

/** Served under /api by being in routes/ (route-files.ts); only with the event store. */
export default routeFile(myDataRoutes, (deps: RouteDependencies) => (deps.history ? { db: deps.db, store: deps.history, now: deps.now, editions: deps.editions } : null));
