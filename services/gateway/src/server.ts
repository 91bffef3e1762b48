/**
 * Wires the gateway from configuration and listens on PORT.
 *
 * Shutdown (close-with-grace): on SIGTERM or SIGINT /health/ready answers 503, the proxied live
 * streams end, the server stops accepting, the proxied requests in flight finish and the process
 * exits 0, within SHUTDOWN_DELAY_MS (else exit 1). An uncaught error is logged (pino, `err`) and
 * exits 1 after the same close (@sinilill/http installShutdown, bound SHUTDOWN_DELAY_MS).
 */
import { loadConfig } from '@sinilill/config';
import { installShutdown } from '@sinilill/http';
import { buildGateway } from './app';

const config = loadConfig();
const app = buildGateway({
  queryApiUrl: `http://127.0.0.1:${config.queryApiPort}`,
  commandApiUrl: `http://127.0.0.1:${config.commandApiPort}`,
  webRoot: config.webRoot,
  logger: { level: config.logLevel === 'info' ? 'warn' : config.logLevel },
});
installShutdown(app);
await app.listen({ host: config.host, port: config.port });
