/**
 * What the operators' alerts read of Redis besides the queues (infra/prometheus/alerts.yml, the
 * projector's metrics):
 *
 * - Redis's memory, from `INFO memory` (used_memory, maxmemory, total_system_memory, bytes). Redis
 *   runs with `maxmemory-policy noeviction` for BullMQ (infra/compose.yaml), so at maxmemory it
 *   refuses writes: every wake-up, mail and rate-limit count fails.
 * - The last successful backup (`npm run backup`, docs/backup.md): a one-off command that no
 *   scrape can reach, so it leaves a record under `<prefix>:backup:last` (a JSON BackupRecord,
 *   without expiry) and a long-running process reports its age. Redis holds it because every
 *   process, the operators' container included, reaches the same Redis (REDIS_URL); when Redis
 *   loses it (a flushed or new Redis), the alert says no backup is recorded until the next one.
 */
import { Redis } from 'ioredis';

/** Redis's memory, bytes. */
export interface RedisMemory {
  /** used_memory: what Redis's allocator holds for data and overhead. */
  used: number;
  /** maxmemory: the configured limit, 0 when none is set. */
  max: number;
  /** total_system_memory: the host's (or container host's) memory, 0 when Redis does not say. */
  system: number;
}

/**
 * The memory figures of an `INFO memory` answer (lines `key:value`, CRLF-separated, sections
 * under `# Name`). A field missing from the answer reads 0.
 */
export function parseRedisMemory(info: string): RedisMemory {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const bytes = (key: string) => {
    const value = Number(fields.get(key));
    return Number.isFinite(value) && value >= 0 ? value : 0;
  };
  return { used: bytes('used_memory'), max: bytes('maxmemory'), system: bytes('total_system_memory') };
}

/** What a successful backup records. */
export interface BackupRecord {
  /** When the backup file was complete, ISO 8601 UTC. */
  finishedAt: string;
  /** The file's path as the backup command saw it. */
  file: string;
  /** The file's size, bytes. */
  bytes: number;
  /** The log's head position in the backup. */
  headPosition: number;
}

/** The key of the last backup's record, under the queues' prefix (QUEUE_PREFIX, default 'sinilill'). */
export function backupRecordKey(prefix = 'sinilill'): string {
  return `${prefix}:backup:last`;
}

/** The record in `text` (the key's value), or null when it is absent or not a record. */
export function parseBackupRecord(text: string | null): BackupRecord | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<BackupRecord>;
    if (typeof value.finishedAt !== 'string' || Number.isNaN(Date.parse(value.finishedAt))) return null;
    return {
      finishedAt: value.finishedAt,
      file: typeof value.file === 'string' ? value.file : '',
      bytes: typeof value.bytes === 'number' ? value.bytes : 0,
      headPosition: typeof value.headPosition === 'number' ? value.headPosition : 0,
    };
  } catch {
    return null;
  }
}

/** The Redis commands the readers below use (an ioredis client). */
export type RedisReader = Pick<Redis, 'info' | 'get'>;

/**
 * A client for the readers below (connecting by itself, one retry per command so a scrape never
 * waits for a Redis that is down). The caller disconnects it.
 */
export function createRedisReader(redisUrl: string): Redis {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  // Failures surface in the reads that use it; its own error events would only repeat them.
  redis.on('error', () => undefined);
  return redis;
}

/** Redis's memory now (INFO memory). */
export async function readRedisMemory(redis: RedisReader): Promise<RedisMemory> {
  return parseRedisMemory(await redis.info('memory'));
}

/** The last backup's record, or null when none is recorded. */
export async function readBackupRecord(redis: RedisReader, prefix?: string): Promise<BackupRecord | null> {
  return parseBackupRecord(await redis.get(backupRecordKey(prefix)));
}

/**
 * Records a successful backup in the Redis at `redisUrl` (one SET, then the connection closes).
 * @throws the connection's or the command's error (the caller decides whether a backup whose
 *   record failed has failed).
 */
export async function recordBackup(redisUrl: string, record: BackupRecord, prefix?: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.set(backupRecordKey(prefix), JSON.stringify(record));
  } finally {
    redis.disconnect();
  }
}
