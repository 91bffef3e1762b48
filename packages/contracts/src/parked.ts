/**
 * Parked events: an event a projection could not apply because of its data (a
 * PostgreSQL data exception or integrity violation, or an error of the projection's pure fold)
 * is parked — recorded with its error — and the projection moves on, so one event can no longer
 * stall the team pages, the admin console or a replay. Administrators see the parks and decide:
 * retry (after the cause was fixed) or skip (for good); each decision is an event in stream
 * `operations`, which the projections act on when they reach it.
 *
 * - GET /api/admin/parked (query API): the parks, with the count of open ones per projection
 *   (the metric);
 * - POST /api/admin/parked/{position}/retry and …/skip (command API): the decisions; answer
 *   `{ success, position }` — send the position back as x-min-position to read the outcome.
 *
 * Administrators only: 401 UNAUTHORIZED without a valid token, 403 FORBIDDEN for anyone else; an
 * unknown position answers 404 NOT_FOUND (no event there in the log).
 */
import Type from 'typebox';
import { MultiLine } from './text';

/** Where a park stands: waiting for a decision, applied by a retry, or skipped by an administrator. */
export const ParkedStatus = Type.Union([Type.Literal('parked'), Type.Literal('retried'), Type.Literal('skipped')]);
export type ParkedStatus = Type.Static<typeof ParkedStatus>;

/** A projection's name, as the parks and checkpoints name it (`team-directory`). */
const ProjectionName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$' });

/** One parked event. Instants ISO-8601 UTC. The event's data is not shown (it may hold personal data). */
export const ParkedEvent = Type.Object({
  projection: Type.String(),
  /** Global position of the event in the log. */
  position: Type.Integer(),
  eventId: Type.String(),
  eventType: Type.String(),
  /** The SQLSTATE of a PostgreSQL error (`22021`), or `FOLD` for an error of the projection's fold. */
  errorCode: Type.String(),
  /** The error's message, quoted values cut out (no personal data). */
  error: Type.String(),
  parkedAt: Type.String(),
  /** How many times it was tried: 1 when parked, one more per retry. */
  attempts: Type.Integer(),
  status: ParkedStatus,
  /** When a retry applied it or an administrator skipped it; null while parked. */
  resolvedAt: Type.Union([Type.String(), Type.Null()]),
  /** A skip's reason (possibly ''); null otherwise. */
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type ParkedEvent = Type.Static<typeof ParkedEvent>;

/** Query of GET /api/admin/parked: `open` (default) lists the parks waiting for a decision, `all` resolved ones too. */
export const ParkedQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('all')])) },
  { additionalProperties: false },
);
export type ParkedQuery = Type.Static<typeof ParkedQuery>;

/** Most parks GET /api/admin/parked lists (oldest position first); `counts` always covers every open park. */
export const PARKED_LIST_LIMIT = 500;

/**
 * GET /api/admin/parked: the parks by position (at most PARKED_LIST_LIMIT), and the metric — for
 * every projection the projector runs, how many of its events are parked now.
 */
export const ParkedEventsAnswer = Type.Object({
  events: Type.Array(ParkedEvent),
  counts: Type.Array(Type.Object({ projection: Type.String(), parked: Type.Integer() })),
});
export type ParkedEventsAnswer = Type.Static<typeof ParkedEventsAnswer>;

/** Path of POST /api/admin/parked/{position}/retry and …/skip: a global position (digits). */
export const ParkedPositionParams = Type.Object(
  { position: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) },
  { additionalProperties: false },
);
export type ParkedPositionParams = Type.Static<typeof ParkedPositionParams>;

/** POST /api/admin/parked/{position}/retry: every projection that parked the event, or only `projection`. */
export const ParkedRetryBody = Type.Object(
  { projection: Type.Optional(ProjectionName) },
  { additionalProperties: false },
);
export type ParkedRetryBody = Type.Static<typeof ParkedRetryBody>;

/**
 * POST /api/admin/parked/{position}/skip: as retry, with the administrator's reason (recorded in
 * the log; at most 500 characters once trimmed, VALUE_TOO_LONG above: the domain's SKIP_REASON_MAX).
 */
export const ParkedSkipBody = Type.Object(
  {
    projection: Type.Optional(ProjectionName),
    reason: Type.Optional(MultiLine({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type ParkedSkipBody = Type.Static<typeof ParkedSkipBody>;
