/**
 * The `mail` queue: announcement mails, one job per recipient, sent by the
 * command API's mail worker (services/command-api/src/announcements.ts). BullMQ's limiter is
 * kept in Redis for the queue, so it caps the rate of ALL workers together, however many command
 * API processes run one (default 10 jobs a second); a failed job is retried
 * with exponential backoff (default 5 attempts, from 1 s: 1, 2, 4, 8 s).
 */
import { Queue, Worker, type Job, type Processor } from 'bullmq';
import { redisConnection } from './index';

export type { Job } from 'bullmq';
export type { Worker } from 'bullmq';

/** Queue name of the announcement mails. */
export const MAIL_QUEUE = 'mail';

/** Options of the mail queue and its worker. */
export interface MailQueueOptions {
  redisUrl: string;
  /** Key prefix (QUEUE_PREFIX), default 'sinilill'. */
  prefix?: string;
  /** Attempts of a job before it fails for good (default 5). */
  attempts?: number;
  /** First backoff delay, ms, doubled at each retry (default 1000). */
  backoffMs?: number;
}

/** The mail queue; finished jobs are kept (1000 of each) for the board. The caller closes it. */
export function createMailQueue<Data>(options: MailQueueOptions): Queue<Data> {
  return new Queue<Data>(MAIL_QUEUE, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix ?? 'sinilill',
    defaultJobOptions: {
      attempts: options.attempts ?? 5,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
      removeOnComplete: 1000,
      removeOnFail: 1000,
    },
  });
}

/** A worker of the mail queue; the queue as a whole runs at most `ratePerSecond` jobs a second (default 10). The caller closes it. */
export function createMailWorker<Data>(
  options: { redisUrl: string; prefix?: string; ratePerSecond?: number },
  processor: (job: Job<Data>) => Promise<unknown>,
): Worker<Data> {
  return new Worker<Data>(MAIL_QUEUE, processor as Processor<Data>, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix ?? 'sinilill',
    limiter: { max: options.ratePerSecond ?? 10, duration: 1000 },
  });
}
