/**
 * WakeUpPublisher on real Redis: wake-ups sent while one is in flight are coalesced into one
 * follow-up with the highest position, and every caller's promise resolves.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, test, vi } from 'vitest';
import { Queue } from 'bullmq';
import { WakeUpPublisher, projectionQueueName, redisConnection, type WakeUpJob } from './index';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

const prefix = `wake${randomUUID().slice(0, 8)}`;
const publisher = new WakeUpPublisher({ redisUrl: inject('redisUrl'), prefix, projections: ['one', 'two'] });
afterAll(async () => {
  await publisher.close();
});

describe('WakeUpPublisher', () => {
  test('50 wake-ups at once: at most two sends per projection, the last with the highest position', async () => {
    const add = vi.spyOn(Queue.prototype, 'add');
    try {
      await Promise.all(Array.from({ length: 50 }, (_, i) => publisher.wake(i + 1)));
      expect(add.mock.calls.length).toBeLessThanOrEqual(4);
      const positions = add.mock.calls.map((call) => (call[1] as WakeUpJob).position);
      expect(Math.max(...positions)).toBe(50);
    } finally {
      add.mockRestore();
    }
    // The queue holds the deduplicated wake-up of the highest position asked for.
    const queue = new Queue(projectionQueueName('one'), { connection: redisConnection(inject('redisUrl')), prefix });
    try {
      const jobs = await queue.getJobs(['waiting']);
      expect(jobs.map((job) => (job.data as WakeUpJob).position)).toContain(1);
    } finally {
      await queue.close();
    }
  });

  test('a wake-up after the burst is sent again (nothing stays coalesced)', async () => {
    const add = vi.spyOn(Queue.prototype, 'add');
    try {
      await publisher.wake(77);
      expect(add.mock.calls.map((call) => (call[1] as WakeUpJob).position)).toEqual([77, 77]);
    } finally {
      add.mockRestore();
    }
  });
});
