/** Wires the command API: configuration, the event store (with personal-data protection), ids, wake-ups. */
import { CommandService, PostgresIdAllocator } from '@sinilill/commands';
import { createClock, loadConfig, required } from '@sinilill/config';
import { PERSONAL_DATA_FIELDS } from '@sinilill/domain';
import { PersonalDataVault, PostgresEventStore, withPersonalDataProtection } from '@sinilill/event-store';
import { WakeUpPublisher } from '@sinilill/messaging';
import pg from 'pg';
import { buildCommandApi } from './app';

const config = loadConfig();
const pool = new pg.Pool({ connectionString: required(config.databaseUrl, 'DATABASE_URL'), max: 20 });
const store = withPersonalDataProtection(new PostgresEventStore({ pool }), new PersonalDataVault({ pool }), PERSONAL_DATA_FIELDS);
const clock = createClock(config);
const publisher = new WakeUpPublisher({ redisUrl: required(config.redisUrl, 'REDIS_URL'), prefix: config.queuePrefix });
const commands = new CommandService({ store, ids: new PostgresIdAllocator(pool), now: () => clock.now() });
const app = buildCommandApi({
  commands,
  jwtSecret: config.jwtSecret,
  wake: (position) => { void publisher.wake(position, (error) => app.log.warn({ err: error }, 'wake-up failed; the sweep will catch up')); },
  logger: { level: config.logLevel },
});
app.addHook('onClose', async () => {
  await publisher.close();
  await pool.end();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)); });
}
await app.listen({ host: config.host, port: config.commandApiPort });
