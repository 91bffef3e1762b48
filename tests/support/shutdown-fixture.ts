/**
 * A throwaway HTTP service for tests/int/shutdown.int.test.ts: the shared app (createApp), its
 * health routes and installShutdown exactly as the APIs' server.ts use them, plus routes that
 * misbehave on purpose, which no production service has. Run as a process:
 * `node --import tsx tests/support/shutdown-fixture.ts <delayMs>`; it listens on a free port and
 * logs `{ port, msg: 'fixture listening' }` (pino, JSON lines on stdout).
 *
 * - GET /slow?ms=N answers `{ slept: N }` after N ms (a request in flight during a close);
 * - GET /hang never answers (a close that must hit the bound);
 *   both log `{ path, msg: 'fixture request in' }` on arrival, so that a test signals the process
 *   once the request is in flight rather than after a guessed time;
 * - GET /throw throws outside any request (an uncaught exception);
 * - GET /reject rejects a promise nobody handles (an unhandled rejection).
 */
import { createApp, healthRoutes, installShutdown } from '@sinilill/http';

const delayMs = Number(process.argv[2] ?? 10_000);
const app = createApp({ logger: { level: 'info' } });
app.register(healthRoutes);
app.get('/slow', async (request) => {
  const ms = Number((request.query as { ms?: string }).ms ?? 500);
  app.log.info({ path: '/slow' }, 'fixture request in');
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { slept: ms };
});
app.get('/hang', () => {
  app.log.info({ path: '/hang' }, 'fixture request in');
  return new Promise(() => undefined);
});
app.get('/throw', async () => {
  setImmediate(() => { throw new Error('fixture: uncaught exception'); });
  return { thrown: true };
});
app.get('/reject', async () => {
  void Promise.reject(new Error('fixture: unhandled rejection'));
  return { rejected: true };
});
installShutdown(app, { delayMs });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
app.log.info({ port: typeof address === 'object' && address ? address.port : 0 }, 'fixture listening');
