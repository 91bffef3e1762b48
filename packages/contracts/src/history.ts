/**
 * The administrators' event history: the event log itself, read for an audit. Every
 * route answers only an administrator: 401 UNAUTHORIZED without a valid token, 403 FORBIDDEN
 * for anyone else. Positions are the log's global positions; instants ISO-8601 UTC; distances
 * in km. Personal data of an erased person reads null, as everywhere else.
 */
import Type from 'typebox';
import { SingleLine } from './text';

/** Largest page of GET /api/admin/history. */
export const HISTORY_MAX_LIMIT = 500;
/** Page size of GET /api/admin/history when `limit` is absent. */
export const HISTORY_DEFAULT_LIMIT = 100;

/**
 * Entity kinds of the `entity` filter: a stream-name prefix (`team-…`) or a single stream.
 * Literals spelled out: a union mapped from an array loses them (its static type is never).
 */
export const HistoryEntity = Type.Union([
  Type.Literal('team'), Type.Literal('participant'), Type.Literal('entry'),
  Type.Literal('user'), Type.Literal('settings'), Type.Literal('operations'),
]);
export type HistoryEntity = Type.Static<typeof HistoryEntity>;

const Digits = Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$' });
const Id = Type.String({ pattern: '^[1-9][0-9]{0,9}$' });
/** An ISO-8601 instant with a zone (`2025-04-10T09:00:00Z`, `…+03:00`); parsed by the server. */
const Instant = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?(Z|[+-][0-9]{2}:[0-9]{2})$' });

/** The filters shared by GET /api/admin/history and …/export (all optional, combined with AND). */
export const HistoryFilterProperties = {
  /** Exactly this stream (`entry-12`). */
  stream: Type.Optional(SingleLine({ minLength: 1, maxLength: 200 })),
  /** Streams of one kind of entity. */
  entity: Type.Optional(HistoryEntity),
  /** Exactly this event type (`EntryEdited`). */
  type: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,99}$' })),
  /** Events whose data names this team (data.teamId). */
  team: Type.Optional(Id),
  /** Events whose data names this participant (data.participantId). */
  participant: Type.Optional(Id),
  /** Events caused by this user (metadata.actor.userId). */
  actor: Type.Optional(SingleLine({ minLength: 1, maxLength: 100 })),
  /** Recorded at or after this instant. */
  from: Type.Optional(Instant),
  /** Recorded strictly before this instant. */
  to: Type.Optional(Instant),
};

/** The history's listing order by global position; `asc` (oldest first) when not given. */
export const HistoryOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
export type HistoryOrder = Type.Static<typeof HistoryOrder>;

/** Query of GET /api/admin/history. */
export const HistoryQuery = Type.Object({
  ...HistoryFilterProperties,
  /**
   * Keyset: the events listed after this global position (a page's `next`): greater than it in
   * `asc` order, smaller in `desc`. Not together with `page` or `at`.
   */
  after: Type.Optional(Digits),
  order: Type.Optional(HistoryOrder),
  /** Numbered paging: this page (from 1) of `limit` events; the answer then has `total` and `page`. */
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,6}$' })),
  /**
   * Numbered paging from a moment: the page holding the first event listed at `at` (recorded at
   * or before it, newest first; at or after it, oldest first); the answer's `page` says which.
   */
  at: Type.Optional(Instant),
  /** Page size, 1..HISTORY_MAX_LIMIT, default HISTORY_DEFAULT_LIMIT. */
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$' })),
}, { additionalProperties: false });
export type HistoryQuery = Type.Static<typeof HistoryQuery>;

/** Query of GET /api/admin/history/export. */
export const HistoryExportQuery = Type.Object({
  ...HistoryFilterProperties,
  format: Type.Optional(Type.Union([Type.Literal('ndjson'), Type.Literal('csv')])),
}, { additionalProperties: false });
export type HistoryExportQuery = Type.Static<typeof HistoryExportQuery>;

/** Who caused an event; null on events written without an actor. */
export const HistoryActor = Type.Union([
  Type.Object({
    /** Null for the system (importer, operators' tools). */
    userId: Type.Union([Type.String(), Type.Null()]),
    role: Type.String(),
  }),
  Type.Null(),
]);
export type HistoryActor = Type.Static<typeof HistoryActor>;

/** One event of the log, as an audit shows it. */
export const HistoryEvent = Type.Object({
  position: Type.Integer(),
  stream: Type.String(),
  /** 0-based position inside the stream. */
  revision: Type.Integer(),
  type: Type.String(),
  /** The event's payload (personal fields decrypted, or null once erased). */
  data: Type.Unknown(),
  actor: HistoryActor,
  correlationId: Type.Union([Type.String(), Type.Null()]),
  causationId: Type.Union([Type.String(), Type.Null()]),
  recordedAt: Type.String(),
});
export type HistoryEvent = Type.Static<typeof HistoryEvent>;

/**
 * GET /api/admin/history: a page in the asked order; `next` is the `after` of the next page, null
 * at the end. With `page` or `at`: `total` events match the filters and this is page `page`.
 */
export const HistoryPage = Type.Object({
  events: Type.Array(HistoryEvent),
  next: Type.Union([Type.Integer(), Type.Null()]),
  total: Type.Optional(Type.Integer({ minimum: 0 })),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type HistoryPage = Type.Static<typeof HistoryPage>;

/** Query of GET /api/admin/history/timeline. */
export const TimelineQuery = Type.Object({ stream: SingleLine({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export type TimelineQuery = Type.Static<typeof TimelineQuery>;

/** One field that an event changed: its value before (null when it had none) and after (null when removed). */
export const FieldChange = Type.Object({
  field: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type FieldChange = Type.Static<typeof FieldChange>;

/** GET /api/admin/history/timeline: a stream's events, oldest first, each with what it changed. */
export const TimelineAnswer = Type.Array(Type.Object({
  position: Type.Integer(),
  type: Type.String(),
  recordedAt: Type.String(),
  actor: HistoryActor,
  correlationId: Type.Union([Type.String(), Type.Null()]),
  changes: Type.Array(FieldChange),
}));
export type TimelineAnswer = Type.Static<typeof TimelineAnswer>;

/** Query of GET /api/admin/history/team/{id}/as-of. */
export const AsOfQuery = Type.Object({ at: Instant }, { additionalProperties: false });
export type AsOfQuery = Type.Static<typeof AsOfQuery>;

/** GET /api/admin/history/team/{id}/as-of: the team's figures as the log stood at `at`. */
export const TeamAsOfAnswer = Type.Object({
  teamId: Type.Integer(),
  teamName: Type.String(),
  /** The instant asked for, ISO-8601 UTC. */
  at: Type.String(),
  participants: Type.Integer(),
  /** Rounded km (spec §4), the figure the progress rules use. */
  distance: Type.Integer(),
  /** km, two decimals, the exact sum of the entries. */
  distanceExact: Type.Number(),
  prestige: Type.Integer(),
  inLapDistance: Type.Number(),
  blueFlowers: Type.Integer(),
});
export type TeamAsOfAnswer = Type.Static<typeof TeamAsOfAnswer>;
