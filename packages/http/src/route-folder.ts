/**
 * Routes registered by folder, the idea of @fastify/autoload (as fastify/demo uses it): every
 * route file of a service's `routes/` folder is registered because it is there, so a feature's
 * route file needs no separate wiring edit. Each file default-exports a RouteFile: its plugin and
 * the options it draws from the service's dependencies (or null: not served with these, e.g. the
 * payment routes without a payment provider).
 *
 * @fastify/autoload itself reads the folder when the server starts; the services run as one
 * esbuild bundle (infra/build/build.ts) that has no routes/ folder beside it, so a service lists
 * its files itself (the folder in development and tests, the names the build recorded in the
 * bundle) and imports them by a template literal, which esbuild bundles as a glob.
 */
import { readdirSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions, FastifyTypeProvider, RawServerDefault } from 'fastify';

/**
 * A route file's name: `<name>.ts` with no further dot, so tests (`x.test.ts`) and declarations
 * (`x.d.ts`) beside the routes are not registered. infra/build/build.ts applies the same rule.
 */
export const ROUTE_FILE_PATTERN = /^[a-z0-9-]+\.ts$/;

/** What a route file default-exports: how to register its routes with the service's dependencies. */
export interface RouteFile<Deps> {
  /** Registers the file's routes on `api` with options drawn from `deps`; nothing when they are not served. */
  register(api: FastifyInstance, deps: Deps): Promise<void>;
}

/**
 * A route file's default export: `plugin` registered with `options(deps)`, or not at all when
 * that is null.
 */
export function routeFile<Deps, Options extends FastifyPluginOptions, Provider extends FastifyTypeProvider>(
  plugin: FastifyPluginAsync<Options, RawServerDefault, Provider>,
  options: (deps: Deps) => Options | null,
): RouteFile<Deps> {
  return {
    async register(api, deps) {
      const chosen = options(deps);
      if (chosen !== null) await api.register(plugin, chosen);
    },
  };
}

/** The route files of `folder` (a directory URL), by name: the order they are registered in. */
export function routeFileNames(folder: URL): string[] {
  return readdirSync(folder).filter((name) => ROUTE_FILE_PATTERN.test(name)).sort();
}

/**
 * Registers every route file on `api`, in the order given.
 * @throws Error naming a file whose default export is not a RouteFile (a file in routes/ that is
 * not a route file belongs elsewhere).
 */
export async function registerRouteFiles<Deps>(
  api: FastifyInstance,
  files: readonly { name: string; module: { default?: unknown } }[],
  deps: Deps,
): Promise<void> {
  for (const { name, module } of files) {
    const file = module.default;
    if (!isRouteFile<Deps>(file)) throw new Error(`routes/${name} has no RouteFile as its default export (routeFile of @sinilill/http)`);
    await file.register(api, deps);
  }
}

function isRouteFile<Deps>(value: unknown): value is RouteFile<Deps> {
  return typeof value === 'object' && value !== null && typeof (value as { register?: unknown }).register === 'function';
}
