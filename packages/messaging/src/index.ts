/**
 * The queues between the services (re-exports only): the projections' wake-ups (wake-up.ts), the
 * replay queue (replay-queue.ts) and the announcement mail queue (mail-queue.ts), all BullMQ on Redis.
 */
export {
  MAX_WAKE_UP_ORIGINS,
  PROJECTION_NAMES,
  WAKE_UP_JOB,
  WakeUpPublisher,
  projectionQueueName,
  redisConnection,
  type ProjectionName,
  type WakeOptions,
  type WakeUpJob,
  type WakeUpOrigin,
  type WakeUpPublisherOptions,
} from './wake-up';
export { REPLAY_JOB, REPLAY_QUEUE, createProjectionQueues, createReplayQueue, type ReplayJob, type ReplayJobProgress } from './replay-queue';
/** BullMQ's queue type, for services that hold the queues this package makes without depending on bullmq. */
export type { Queue } from 'bullmq';
export { MAIL_QUEUE, createMailQueue, createMailWorker, type Job, type MailQueueOptions, type Worker } from './mail-queue';
export {
  STRAVA_QUEUE,
  createStravaQueue,
  createStravaWorker,
  enqueueStravaJob,
  stravaJobId,
  stravaRateLimitError,
  type StravaActivityJob,
  type StravaBackfillJob,
  type StravaDeauthorizeJob,
  type StravaJob,
  type StravaQueueOptions,
} from './strava-queue';
export {
  backupRecordKey,
  createRedisReader,
  parseBackupRecord,
  parseRedisMemory,
  readBackupRecord,
  readRedisMemory,
  recordBackup,
  type BackupRecord,
  type RedisMemory,
  type RedisReader,
} from './redis-facts';
