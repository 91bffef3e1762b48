/**
 * The administrators' event history: the event log itself, since that is what an
 * audit is (docs/decisions/0016). Every route authenticates (401 UNAUTHORIZED) and answers
 * only an administrator (403 FORBIDDEN).
 *
 * - GET /admin/history: filtered events in global order (oldest or newest first), keyset-paged by
 *   `after`, or numbered: `page`, or the page of a moment `at`, with the total;
 * - GET /admin/history/timeline?stream=: one stream's events with the fields each changed;
 * - GET /admin/history/team/{id}/as-of?at=: the team's figures folded from its events up to `at`
 *   (recording time: what the system knew then, not when the activity happened);
 * - GET /admin/history/export?format=ndjson|csv: the filtered events as a download, streamed
 *   batch by batch up to the log's head when the export began.
 */
import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringify } from 'csv-stringify';
import Type from 'typebox';
import {
  AsOfQuery,
  ErrorAnswer,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  HistoryExportQuery,
  HistoryPage,
  HistoryQuery,
  TeamAsOfAnswer,
  TimelineAnswer,
  TimelineQuery,
} from '@sinilill/contracts';
import { DomainError } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';
import { ID_PATTERN, requireAdmin, routeFile } from '@sinilill/http';
import { teamAsOf, timeline, toHistoryEvent } from '../history-fold';
import { HistoryReader, type HistoryFilter } from '../history-query';
import type { ReadModelEditions } from '../editions';
import type { RouteDependencies } from '../dependencies';

export interface HistoryRouteOptions {
  reader: HistoryReader;
  /** The protected store (its head bounds an export). */
  store: EventStore;
  now: () => Date;
  /** The editions: a team's figures as of an instant follow its own edition's route. */
  editions: ReadModelEditions;
}

/** Events per query of an export: bounds the memory one download holds. */
export const EXPORT_BATCH = 500;

const refusals = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer };

/** An ISO instant from a query parameter (the schema checked its shape, not its calendar). */
function instant(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new DomainError('INVALID_REQUEST', `not an instant: ${value}`);
  return date;
}

function filterOf(query: HistoryExportQuery): HistoryFilter {
  return {
    stream: query.stream,
    entity: query.entity,
    type: query.type,
    team: query.team === undefined ? undefined : Number(query.team),
    participant: query.participant === undefined ? undefined : Number(query.participant),
    actor: query.actor,
    from: instant(query.from),
    to: instant(query.to),
  };
}

/**
 * Every event matching `filter` up to position `until`, in global order, read `batch` at a time
 * so that an export of the whole log never holds more than one batch.
 */
export async function* allEvents(
  reader: Pick<HistoryReader, 'page'>, filter: HistoryFilter, until: number, batch = EXPORT_BATCH,
): AsyncGenerator<RecordedEvent> {
  let after = 0;
  for (;;) {
    const events = await reader.page({ ...filter, until }, after, batch);
    yield* events;
    const last = events.at(-1);
    if (!last || events.length < batch) return;
    after = last.globalPosition;
  }
}

/** The CSV's actor column: `ROLE:userId`, or the role alone for the system. */
function actorLabel(event: RecordedEvent): string {
  const actor = toHistoryEvent(event).actor;
  if (!actor) return '';
  return actor.userId === null ? actor.role : `${actor.role}:${actor.userId}`;
}

export const historyRoutes: FastifyPluginAsyncTypebox<HistoryRouteOptions> = async (app, { reader, store, now, editions }) => {
  const guard = { onRequest: [app.authenticate, requireAdmin] };

  app.get('/admin/history', {
    ...guard,
    schema: { querystring: HistoryQuery, response: { 200: HistoryPage, ...refusals } },
  }, async (request) => {
    const { after, limit, order = 'asc', page, at, ...filters } = request.query;
    const size = limit === undefined ? HISTORY_DEFAULT_LIMIT : Number(limit);
    if (size > HISTORY_MAX_LIMIT) throw new DomainError('INVALID_REQUEST', `limit above ${HISTORY_MAX_LIMIT}`);
    const filter = filterOf(filters);
    if (page !== undefined || at !== undefined) {
      if (after !== undefined) throw new DomainError('INVALID_REQUEST', 'after is a cursor; page and at number the pages');
      if (page !== undefined && at !== undefined) throw new DomainError('INVALID_REQUEST', 'page or at, not both');
      const moment = instant(at);
      const [total, before] = await Promise.all([
        reader.count(filter),
        moment === undefined ? Promise.resolve((Number(page) - 1) * size) : reader.count(filter, { at: moment, order }),
      ]);
      const number = Math.floor(before / size) + 1;
      const events = await reader.pageAt(filter, order, (number - 1) * size, size + 1);
      const shown = events.slice(0, size);
      return { events: shown.map(toHistoryEvent), next: events.length > size ? (shown.at(-1)?.globalPosition ?? null) : null, total, page: number };
    }
    // One more than asked tells whether a next page exists without a second query.
    const events = await reader.page(filter, after === undefined ? 0 : Number(after), size + 1, order);
    const shown = events.slice(0, size);
    return { events: shown.map(toHistoryEvent), next: events.length > size ? (shown.at(-1)?.globalPosition ?? null) : null };
  });

  app.get('/admin/history/timeline', {
    ...guard,
    schema: { querystring: TimelineQuery, response: { 200: TimelineAnswer, ...refusals } },
  }, async (request) => timeline(await reader.stream(request.query.stream)));

  app.get('/admin/history/team/:id/as-of', {
    ...guard,
    schema: { params: Type.Object({ id: Type.String({ pattern: ID_PATTERN }) }), querystring: AsOfQuery, response: { 200: TeamAsOfAnswer, ...refusals } },
  }, async (request) => {
    const teamId = Number(request.params.id);
    const at = instant(request.query.at)!;
    const edition = await editions.ofTeam(teamId, now());
    const figures = edition ? teamAsOf(teamId, at, await reader.teamEvents(teamId, at), edition) : null;
    if (!figures) throw new DomainError('NOT_FOUND', `team ${teamId} as of ${at.toISOString()}`);
    return figures;
  });

  app.get('/admin/history/export', {
    ...guard,
    // No response schema: the body is a stream; refusals go through the shared error handler.
    schema: { querystring: HistoryExportQuery },
  }, async (request, reply) => {
    const { format = 'ndjson', ...filters } = request.query;
    const filter = filterOf(filters);
    // A fixed end: an export started during the event shows the log as it stood then, and ends.
    const until = await store.headPosition();
    const events = allEvents(reader, filter, until);
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    reply.header('content-disposition', `attachment; filename="history-${stamp}.${format}"`);
    if (format === 'ndjson') {
      reply.type('application/x-ndjson; charset=utf-8');
      return reply.send(Readable.from((async function* () {
        for await (const event of events) yield `${JSON.stringify(toHistoryEvent(event))}\n`;
      })()));
    }
    const rows = Readable.from((async function* () {
      for await (const event of events) {
        yield {
          position: event.globalPosition,
          recorded_at: event.recordedAt.toISOString(),
          stream: event.stream,
          type: event.type,
          actor: actorLabel(event),
          correlation_id: toHistoryEvent(event).correlationId ?? '',
          data: JSON.stringify(event.data),
        };
      }
    })());
    const csv = stringify({ header: true, columns: ['position', 'recorded_at', 'stream', 'type', 'actor', 'correlation_id', 'data'] });
    // pipeline, not pipe: a failed query must end the download (truncated, visibly), not hang it.
    pipeline(rows, csv, (error) => {
      if (error) request.log.error({ err: error }, 'history export failed');
    });
    reply.type('text/csv; charset=utf-8');
    return reply.send(csv);
  });
};

/** Served under /api by being in routes/ (route-files.ts); only with the event store (docs/decisions/0016). */
export default routeFile(historyRoutes, (deps: RouteDependencies) => (deps.history ? { reader: new HistoryReader(deps.history), store: deps.history, now: deps.now, editions: deps.editions } : null));
