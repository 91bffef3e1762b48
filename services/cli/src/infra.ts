/**
 * Where the operators' tools find PostgreSQL and Redis: DATABASE_URL / REDIS_URL when set;
 * otherwise the embedded ones in DATA_DIR, reused when `npm start` already runs them, started
 * for the duration of the command when not.
 */
import { join } from 'node:path';
import { connect } from 'node:net';
import type { Config } from '@sinilill/config';
import { findRedisServer, startEmbeddedPostgres, startRedis, type RunningService } from '@sinilill/local-infra';

export interface Infrastructure {
  databaseUrl: string;
  /** Null when no Redis is configured, running or installable (wake-ups then fall to the sweep). */
  redisUrl: string | null;
  /** Stops what this command started (nothing it merely reused). */
  stop(): Promise<void>;
}

const EMBEDDED_PASSWORD = 'postgres';

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => { socket.destroy(); resolve(false); });
  });
}

/**
 * Connects to (or starts) the infrastructure the configuration names. Redis: `required` starts
 * (or installs) a redis-server, `optional` starts one only when installed, `none` leaves it out.
 */
export async function openInfrastructure(
  config: Config,
  options: { redis: 'required' | 'optional' | 'none'; log?: (line: string) => void },
): Promise<Infrastructure> {
  const started: RunningService[] = [];
  const log = options.log ?? (() => undefined);
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const port = config.embeddedPostgresPort;
    if (await listening(port)) {
      databaseUrl = `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/sinilill`;
    } else {
      log(`starting embedded PostgreSQL on 127.0.0.1:${port} (data in ${join(config.dataDir, 'postgres')})`);
      const postgres = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'postgres'), port });
      started.push(postgres);
      databaseUrl = postgres.url;
    }
  }
  let redisUrl = options.redis === 'none' ? null : config.redisUrl;
  if (!redisUrl && options.redis !== 'none') {
    const port = config.embeddedRedisPort;
    if (await listening(port)) {
      redisUrl = `redis://127.0.0.1:${port}`;
    } else if (options.redis === 'required' || findRedisServer()) {
      log(`starting redis-server on 127.0.0.1:${port}`);
      const redis = await startRedis({ dataDir: join(config.dataDir, 'redis'), port });
      started.push(redis);
      redisUrl = redis.url;
    }
  }
  return {
    databaseUrl,
    redisUrl,
    async stop() {
      for (const service of started.reverse()) await service.stop();
    },
  };
}
