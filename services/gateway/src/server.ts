/** Wires the gateway from configuration and listens on PORT. */
import { join } from 'node:path';
import { loadConfig, repoRoot } from '@sinilill/config';
import { buildGateway } from './app';

const config = loadConfig();
const app = buildGateway({
  queryApiUrl: `http://127.0.0.1:${config.queryApiPort}`,
  commandApiUrl: `http://127.0.0.1:${config.commandApiPort}`,
  webRoot: process.env.WEB_ROOT || join(repoRoot, 'web/dist'),
  logger: { level: config.logLevel === 'info' ? 'warn' : config.logLevel },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)); });
}
await app.listen({ host: config.host, port: config.port });
