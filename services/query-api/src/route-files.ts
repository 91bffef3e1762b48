/**
 * The query API's route files: every `<name>.ts` of routes/ (ROUTE_FILE_PATTERN of
 * @sinilill/http), imported in file-name order. A new route file is served by being there; it
 * default-exports routeFile(plugin, options from RouteDependencies).
 */
import { routeFileNames } from '@sinilill/http';

/**
 * The route files' names as the production build recorded them (infra/build/build.ts `define`):
 * the bundle has no routes/ folder beside it to read. Undefined when running from the sources.
 */
declare const __ROUTE_FILES__: readonly string[] | undefined;

/** Every route file of routes/ with its module, in file-name order. */
export async function importRouteFiles(): Promise<{ name: string; module: { default?: unknown } }[]> {
  const names = typeof __ROUTE_FILES__ === 'undefined' ? routeFileNames(new URL('./routes/', import.meta.url)) : __ROUTE_FILES__;
  // A template literal with a static folder: esbuild bundles every file of routes/ (a glob import).
  return Promise.all(names.map(async (name) => ({ name, module: (await import(`./routes/${name}`)) as { default?: unknown } })));
}
