/**
 * The whole application running in this process on real loopback ports, wired as the services'
 * server.ts files wire it (for the fuzz suite): the command API (accounts, media,
 * the payment sandbox, the replay queue and the queue board), the query API (media, the live
 * change listener, the history), the gateway in front of both, and the projector (BullMQ workers
 * with a short sweep) with its replay worker — all on one scratch database and the suite's Redis
 * under a key prefix of its own.
 *
 * Every route both APIs register is collected as it is registered (an onRoute hook added before
 * the apps load their plugins), so a caller can enumerate them without a list of its own.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import pg from 'pg';
import { AccountDirectory, AccountService, CommandService, readSettings, withAfterCommit } from '@sinilill/commands';
import { buildCommandApi, readModelLookups } from '@sinilill/command-api';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection, type EventStore } from '@sinilill/event-store';
import { buildGateway } from '@sinilill/gateway';
import { freePort } from '@sinilill/local-infra';
import { MediaStore } from '@sinilill/media';
import { WakeUpPublisher, createProjectionQueues, createReplayQueue, type Queue, type ReplayJob } from '@sinilill/messaging';
import { SandboxProvider } from '@sinilill/payments';
import { startProjector, startReplayWorker, type RunningProjector } from '@sinilill/projector';
import { ReadModelChangeListener, buildQueryApi } from '@sinilill/query-api';
import { projections } from '@sinilill/read-models';
import { streamIndexOn, testApplication, type TestApplication } from './app';
import { NO_MAIL, testSessions, type TestSessions } from './sessions';

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SANDBOX_SECRET = 'test-sandbox-secret-0123456789-0123456789';
const INDEX_SECRET = 'test-index-secret-0123456789';

/** One route as an API registered it. */
export interface CollectedRoute {
  api: 'command' | 'query';
  method: string;
  /** The route pattern (`/api/team/:id`, `/api/admin/queues/static/*`). */
  url: string;
  schema: FastifySchema | undefined;
}

/** A log line an app wrote at warn or above (pino's JSON). */
export interface LoggedProblem {
  source: 'command' | 'query' | 'gateway' | 'projector';
  level: number;
  line: string;
}

export interface RunningApp {
  app: TestApplication;
  /** The protected store the APIs append through. */
  store: EventStore;
  commands: CommandService;
  accounts: AccountService;
  directory: AccountDirectory;
  sessions: TestSessions;
  commandApi: FastifyInstance;
  queryApi: FastifyInstance;
  gateway: FastifyInstance;
  replayQueue: Queue<ReplayJob>;
  /** Every queue the queue board shows (projection wake-ups and replay). */
  queues: readonly Queue[];
  /** The port of the gateway and of each API (all on 127.0.0.1). */
  ports: { gateway: number; command: number; query: number };
  /** Every route both APIs registered. */
  routes: CollectedRoute[];
  /** What the apps and the projector logged at warn and above, oldest first. */
  problems: LoggedProblem[];
  close(): Promise<void>;
}

export interface RunningAppOptions {
  /** The command side's and the queries' clock (events, edition dates). */
  now: () => Date;
  /** The query API's read-your-writes bound, ms. */
  readYourWritesTimeoutMs: number;
  /** The projector's sweep interval, ms. */
  sweepIntervalMs: number;
}

function collectRoutes(api: FastifyInstance, name: CollectedRoute['api'], into: CollectedRoute[]): void {
  // Added before ready(): the apps' plugins (and so their routes) load later, and see the hook.
  api.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) into.push({ api: name, method, url: route.url, schema: route.schema });
  });
}

/** A pino destination that keeps warn (40) and above. */
function problemLog(source: LoggedProblem['source'], into: LoggedProblem[]) {
  return {
    level: 'warn',
    stream: {
      write(line: string) {
        const level = Number((JSON.parse(line) as { level?: unknown }).level ?? 0);
        into.push({ source, level, line: line.trim() });
      },
    },
  };
}

function portOf(api: FastifyInstance): number {
  return (api.server.address() as AddressInfo).port;
}

/** Starts everything; the caller seeds data and closes it. */
export async function startRunningApp(options: RunningAppOptions): Promise<RunningApp> {
  const { now } = options;
  const app = await testApplication({ now });
  const redisUrl = inject('redisUrl');
  const prefix = `fz${randomUUID().slice(0, 8)}`;
  const problems: LoggedProblem[] = [];
  const routes: CollectedRoute[] = [];

  // The command API's wiring (services/command-api/src/server.ts), against the scratch database.
  const accountPool = new pg.Pool({ connectionString: app.url, max: 10 });
  const vault = new PersonalDataVault({ pool: app.pool });
  // The projectors are woken by the store's after-commit hook (server.ts); `publisher` is made below.
  const store = withAfterCommit(
    withPersonalDataProtection(new PostgresEventStore({ pool: app.pool }), vault, PERSONAL_DATA_FIELDS),
    (position) => { void publisher.wake(position); },
  );
  const directory = new AccountDirectory({ pool: accountPool, indexSecret: INDEX_SECRET });
  const commands = new CommandService({
    store, ids: app.ids, now, directory,
    entryInsertionEnabled: async () => (await readSettings(store)).entryInsertionEnabled,
    personalData: vault,
    streamIndex: streamIndexOn(app.pool),
    ...readModelLookups(app.pool),
  });
  const accounts = new AccountService({ store, ids: app.ids, directory, mailer: NO_MAIL, now, publicUrl: 'http://sinilill.test' });
  const sessions = testSessions(app, { now });
  const publisher = new WakeUpPublisher({ redisUrl, prefix });
  const replayQueue = createReplayQueue({ redisUrl, prefix });
  const projectionQueues = createProjectionQueues({ redisUrl, prefix });
  const gatewayPort = await freePort();
  const site = `http://127.0.0.1:${gatewayPort}`;
  const commandApi = buildCommandApi({
    commands,
    accounts,
    media: new MediaStore(app.pool),
    jwtSecret: JWT_SECRET,
    logger: problemLog('command', problems),
    replayQueue,
    boardQueues: [...projectionQueues, replayQueue],
    payments: { provider: new SandboxProvider({ secret: SANDBOX_SECRET, publicUrl: site }), publicUrl: site },
  });
  collectRoutes(commandApi, 'command', routes);
  await commandApi.listen({ host: '127.0.0.1', port: 0 });

  // The query API's wiring (services/query-api/src/server.ts).
  const history = withPersonalDataProtection(
    new PostgresEventStore({ pool: app.pool }), new PersonalDataVault({ pool: app.pool, cacheTtlMs: 0 }), PERSONAL_DATA_FIELDS,
  );
  const changes = new ReadModelChangeListener({ connectionString: app.url });
  await changes.start();
  const queryApi = buildQueryApi({
    db: app.db,
    now,
    readYourWritesTimeoutMs: options.readYourWritesTimeoutMs,
    jwtSecret: JWT_SECRET,
    changes,
    media: new MediaStore(app.pool),
    history,
    logger: problemLog('query', problems),
  });
  collectRoutes(queryApi, 'query', routes);
  await queryApi.listen({ host: '127.0.0.1', port: 0 });

  const gateway = buildGateway({
    queryApiUrl: `http://127.0.0.1:${portOf(queryApi)}`,
    commandApiUrl: `http://127.0.0.1:${portOf(commandApi)}`,
    webRoot: '/nonexistent/web/dist',
    logger: problemLog('gateway', problems),
  });
  await gateway.listen({ host: '127.0.0.1', port: gatewayPort });

  // The projector's wiring (services/projector/src/server.ts).
  const projectorLog = (message: string, details: Record<string, unknown> = {}) => {
    if (details.level === 'warn' || /failed|error/.test(message)) {
      problems.push({ source: 'projector', level: details.level === 'warn' ? 40 : 50, line: JSON.stringify({ message, ...details }) });
    }
  };
  const replayWorker = startReplayWorker({ db: app.db, store, projections, redisUrl, prefix, log: projectorLog });
  const projector: RunningProjector = await startProjector({
    db: app.db, store, projections, redisUrl, prefix, sweepIntervalMs: options.sweepIntervalMs, log: projectorLog,
  });

  return {
    app, store, commands, accounts, directory, sessions, commandApi, queryApi, gateway, replayQueue,
    queues: [...projectionQueues, replayQueue],
    ports: { gateway: gatewayPort, command: portOf(commandApi), query: portOf(queryApi) },
    routes,
    problems,
    async close() {
      await gateway.close();
      await commandApi.close();
      await queryApi.close();
      await changes.close();
      await projector.close();
      await replayWorker.close(true);
      await publisher.close();
      await Promise.all([replayQueue.close(), ...projectionQueues.map((queue) => queue.close())]);
      await accountPool.end();
      await app.close();
    },
  };
}
