/**
 * Where the operators' tools find PostgreSQL and Redis: DATABASE_URL / REDIS_URL when set;
 * otherwise the embedded ones in DATA_DIR, reused when `npm start` already runs them, started
 * for the duration of the command when not.
 */
import { existsSync, readFileSync } from 'node:fs';
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

/** Something listens where this data folder's embedded server would, but it is not that server. */
export class ForeignServerError extends Error {
  override readonly name = 'ForeignServerError';
}

/**
 * Whether the PostgreSQL running from `dataDir` listens on `port`: its postmaster.pid (line 4 is
 * the port) exists and names that port, so that the tools never take another server on the
 * default port for their own (`npm run replay` would rebuild whatever database listened there).
 */
export function embeddedPostgresRunsOn(dataDir: string, port: number): boolean {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  return Number(lines[3]?.trim()) === port;
}

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
      // Reused only when it is this data folder's server (the one `npm start` runs), never a
      // stranger that happens to listen there.
      if (!embeddedPostgresRunsOn(config.dataDir, port)) {
        throw new ForeignServerError(
          `127.0.0.1:${port} is in use, but not by the embedded PostgreSQL of ${config.dataDir}: ` +
          'refusing to touch a database this tool did not start. Set DATABASE_URL to use that server, ' +
          'or PORT and DATA_DIR to name the running copy.',
        );
      }
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
      // The local Redis of a running copy goes with its PostgreSQL: reused when that is this data
      // folder's (or the database was named), refused when a stranger's server sits on the port.
      if (!config.databaseUrl && !embeddedPostgresRunsOn(config.dataDir, config.embeddedPostgresPort)) {
        throw new ForeignServerError(
          `127.0.0.1:${port} is in use, but the copy of ${config.dataDir} is not running: refusing to use a Redis ` +
          'this tool did not start. Set REDIS_URL to use that server, or PORT and DATA_DIR to name the running copy.',
        );
      }
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
