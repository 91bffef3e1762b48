/**
 * The operators' replay and queue board (docs/decisions/0017). Every route answers only an
 * administrator: 401 UNAUTHORIZED without a valid token, 403 FORBIDDEN for anyone else.
 *
 * POST /api/admin/replay enqueues a replay (rebuild every read model, record ReadModelsReplayed)
 * and answers its job id; while another replay is waiting or running it answers 409
 * CONCURRENCY_CONFLICT (never a second rebuild racing the first). GET /api/admin/replay/{jobId}
 * follows it. POST /api/admin/queues/session opens the queue board for a browser (a cookie).
 */
import Type from 'typebox';

/** A BullMQ job id as the replay queue issues them (digits). */
export const ReplayJobParams = Type.Object(
  { jobId: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) },
  { additionalProperties: false },
);
export type ReplayJobParams = Type.Static<typeof ReplayJobParams>;

/** Answer of POST /api/admin/replay. */
export const ReplayStarted = Type.Object({ jobId: Type.String() });
export type ReplayStarted = Type.Static<typeof ReplayStarted>;

/** The public totals of spec §2 (rm.stats_totals), before or after a replay. */
export const ReplayTotalsAnswer = Type.Object({
  teams: Type.Integer(),
  participants: Type.Integer(),
  distance: Type.Number(),
  blueFlowers: Type.Integer(),
});

/** How far a replay has come: the projection being rebuilt, its position of `head`, and overall percent. */
export const ReplayProgressAnswer = Type.Object({
  projection: Type.String(),
  position: Type.Integer(),
  head: Type.Integer(),
  read: Type.Integer(),
  percent: Type.Number({ minimum: 0, maximum: 100 }),
});
export type ReplayProgressAnswer = Type.Static<typeof ReplayProgressAnswer>;

/** A finished replay: the data of the ReadModelsReplayed it recorded in stream `operations`. */
export const ReplayResultAnswer = Type.Object({
  jobId: Type.Union([Type.String(), Type.Null()]),
  events: Type.Integer(),
  position: Type.Integer(),
  before: ReplayTotalsAnswer,
  after: ReplayTotalsAnswer,
  startedAt: Type.String(),
  finishedAt: Type.String(),
  /**
   * Each read-model table, rebuilt vs live, compared before the swap: rows and
   * a 16-hex-digit checksum of each side, and whether they match. Absent for replays recorded
   * without them.
   */
  checksums: Type.Optional(Type.Array(Type.Object({
    table: Type.String(),
    rows: Type.Integer(),
    rebuilt: Type.String(),
    liveRows: Type.Union([Type.Integer(), Type.Null()]),
    live: Type.Union([Type.String(), Type.Null()]),
    match: Type.Boolean(),
  }))),
});
export type ReplayResultAnswer = Type.Static<typeof ReplayResultAnswer>;

export const REPLAY_STATES = ['waiting', 'active', 'completed', 'failed'] as const;
export type ReplayState = (typeof REPLAY_STATES)[number];

/**
 * Answer of GET /api/admin/replay/{jobId}: `progress` is null until the worker reports,
 * `result` null until completed; a failed job's `result` is null too. 404 NOT_FOUND for an
 * unknown (or expired: kept a day) job.
 */
export const ReplayStatus = Type.Object({
  jobId: Type.String(),
  state: Type.Union([Type.Literal('waiting'), Type.Literal('active'), Type.Literal('completed'), Type.Literal('failed')]),
  progress: Type.Union([ReplayProgressAnswer, Type.Null()]),
  result: Type.Union([ReplayResultAnswer, Type.Null()]),
});
export type ReplayStatus = Type.Static<typeof ReplayStatus>;

/** Path of the queue board, and of its session cookie. */
export const QUEUE_BOARD_PATH = '/api/admin/queues';
/** Name of the cookie that lets a browser open the queue board. */
export const QUEUE_BOARD_COOKIE = 'sinilill_queues';
/** Lifetime of a queue board session, seconds. */
export const QUEUE_BOARD_SESSION_SECONDS = 15 * 60;

/** Answer of POST /api/admin/queues/session (the cookie itself is HttpOnly). */
export const QueueBoardSession = Type.Object({ path: Type.String(), expiresInSeconds: Type.Integer() });
export type QueueBoardSession = Type.Static<typeof QueueBoardSession>;
