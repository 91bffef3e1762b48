/**
 * The command API (Fastify): validates (TypeBox, strict), authenticates (JWT), hands commands to
 * the CommandService (which decides and appends), then wakes the projectors.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { CommandService } from '@sinilill/commands';
import { createApp } from '@sinilill/http';
import { authPlugin } from './plugins/auth';
import { entryRoutes } from './routes/entries';

export interface CommandApiDependencies {
  commands: CommandService;
  jwtSecret: string;
  /** Wakes the projectors for events up to `position` (must not throw). */
  wake: (position: number) => void;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the command API (not listening yet). */
export function buildCommandApi(deps: CommandApiDependencies): FastifyInstance {
  const app = createApp({ logger: deps.logger ?? false });
  app.register(authPlugin, { secret: deps.jwtSecret, resolveActor: (actor) => deps.commands.resolveActor(actor) });
  app.register(async (api) => {
    await api.register(entryRoutes, { commands: deps.commands, appended: deps.wake });
  }, { prefix: '/api' });
  return app;
}
