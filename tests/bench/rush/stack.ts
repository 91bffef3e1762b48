/**
 * The stack the rush runs against, laid out as production runs it: the command API, the query
 * API and the projector each a Node process of its own (`node --import tsx
 * services/<name>/src/server.ts`, the way tests/support/service-process.ts and `npm run dev` start
 * them: the code the compiled build bundles, without the build step), on one PostgreSQL database
 * and one Redis, and nginx with the kit's infra/nginx/sinilill.conf in front of the two APIs
 * (production's front door, in place of the development gateway; started as stats-peers.ts
 * starts it, its error log counted rather than printed).
 *
 * The services log at `warn` (production's level is info; a line per request would cost the CPU
 * the rush measures), with a simulated clock from `clockStart` (entries are accepted only inside
 * the edition; production runs CLOCK=real, which would refuse them today), no SMTP (no mail is
 * sent by anything the rush does) and the administrator `admin` created at the command API's
 * start (ADMIN_EMAIL, ADMIN_PASSWORD).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@sinilill/config';
import { freePortBlock } from '@sinilill/local-infra';
import { spawnService, waitForOk, type ServiceProcess } from '../../support/service-process';
import { startNginx } from '../stats-peers';

export interface RushStack {
  /** nginx's address, the only one the clients use: http://127.0.0.1:port. */
  url: string;
  services: { name: string; process: ServiceProcess }[];
  /** The lines of the services' output at level error or above (pino's 50, 60), with the service's name. */
  errorLines(): string[];
  /** nginx's error log (warn and above) by what it said, the client, request and ids left out, with counts. */
  nginxErrors(): Map<string, number>;
  stop(): Promise<void>;
}

const SERVICES = [
  { name: 'command-api', file: 'services/command-api/src/server.ts' },
  { name: 'query-api', file: 'services/query-api/src/server.ts' },
  { name: 'projector', file: 'services/projector/src/server.ts' },
] as const;

/**
 * Starts the three services and nginx; resolves when each answers 200 on /health/ready.
 * @throws Error with a service's output when it exits or is not ready within 120 s (then
 *   everything started is stopped).
 */
export async function startRushStack(options: {
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  emailIndexSecret: string;
  clockStart: string;
  admin: { email: string; password: string };
}): Promise<RushStack> {
  const dataDir = mkdtempSync(join(repoRoot, '.tmp-bench-rush-'));
  // Four ports from PORT: the (unused) gateway's, the two APIs', the projector's health.
  const port = await freePortBlock(8);
  const ports = { command: port + 1, query: port + 2, projector: port + 3 };
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'development',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    BULLMQ_PREFIX: `rush${Date.now().toString(36)}`,
    JWT_SECRET: options.jwtSecret,
    EMAIL_INDEX_SECRET: options.emailIndexSecret,
    HOST: '127.0.0.1',
    PORT: String(port),
    COMMAND_API_PORT: String(ports.command),
    QUERY_API_PORT: String(ports.query),
    PROJECTOR_PORT: String(ports.projector),
    MAILDEV_SMTP_PORT: String(port + 5),
    MAILDEV_WEB_PORT: String(port + 6),
    DATA_DIR: dataDir,
    CLOCK: 'simulated',
    CLOCK_START: options.clockStart,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: options.admin.email,
    ADMIN_PASSWORD: options.admin.password,
    PAYMENT_PROVIDER: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
  };
  const services = SERVICES.map(({ name, file }) => ({ name, process: spawnService(file, env) }));
  let nginx: FrontDoor | undefined;
  const stop = async () => {
    await nginx?.stop();
    // SIGTERM: each service closes gracefully (its commands in flight finish) within its 10 s bound.
    await Promise.all(services.map(async ({ process }) => {
      if (process.child.exitCode === null && process.child.signalCode === null) process.signal('SIGTERM');
      const exited = await Promise.race([process.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000))]);
      if (!exited) await process.kill();
    }));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const health = { 'command-api': ports.command, 'query-api': ports.query, projector: ports.projector };
    await Promise.all(services.map(({ name, process }) => waitForOk(`http://127.0.0.1:${health[name]}/health/ready`, process, 120_000)));
    nginx = await startFrontDoor({ query: `127.0.0.1:${ports.query}`, command: `127.0.0.1:${ports.command}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: nginx.url,
    services,
    errorLines: () => services.flatMap(({ name, process }) => process.logLines()
      .filter((line) => typeof line.level === 'number' && line.level >= 50)
      .map((line) => `${name}: ${String(line.msg ?? line.message ?? '')}${line.err ? ` (${JSON.stringify((line.err as { message?: string }).message ?? line.err)})` : ''}`)),
    nginxErrors: () => nginx!.errors,
    stop,
  };
}

/** nginx in front of the APIs, and what its error log said. */
interface FrontDoor { url: string; errors: Map<string, number>; stop(): Promise<void> }

/**
 * nginx with the kit's configuration in front of the APIs at `apis` (host:port), as stats-peers.ts
 * startNginx runs it, with its error log counted by kind rather than printed: under a rush it logs
 * a line per failed upstream request.
 * @throws Error when nginx does not answer within 10 s.
 */
async function startFrontDoor(apis: { query: string; command: string }): Promise<FrontDoor> {
  const errors = new Map<string, number>();
  const started = await startNginx({ query: `http://${apis.query}`, command: `http://${apis.command}` }, (line) => {
    // "2026/12/05 10:01:02 [error] 26801#26801: *2898 upstream timed out (…) while connecting to upstream, client: …"
    const what = /\[(\w+)\] \d+#\d+: (?:\*\d+ )?(.*?)(?:, client: .*)?$/.exec(line);
    if (what) errors.set(`${what[1]}: ${what[2]}`, (errors.get(`${what[1]}: ${what[2]}`) ?? 0) + 1);
  });
  return { ...started, errors };
}
