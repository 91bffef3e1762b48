/**
 * `npm run build`: the production build (docs/decisions/0019).
 *
 * - Each service's entry (and the operators' CLI) is compiled by esbuild into one ES module,
 *   `services/<name>/dist/<entry>.js`, with the workspace packages (@sinilill/*) compiled into it
 *   and every npm dependency left as an import, resolved at run time from node_modules — so the
 *   services run as plain `node` on a `npm ci --omit=dev` install.
 * - The web client is built by Vite into `web/dist`.
 * - `services/cli/dist/build-info.json` records when and from what; the launcher
 *   (services/cli/bin/sinilill.mjs) compares it with the sources to rebuild when they changed.
 *
 * Typechecking is `npm run typecheck` (tsc -b), not part of this build.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The entries compiled: service → its entry files below `src/`. */
export const ENTRIES: Record<string, string[]> = {
  'query-api': ['server'],
  // The activity-file reader runs in a worker thread of its own (activity-file-parser.ts).
  'command-api': ['server', 'activity-file-worker'],
  projector: ['server'],
  gateway: ['server'],
  cli: ['main'],
};

/** npm dependencies stay imports; only the workspace's own packages are compiled in. */
const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@sinilill/') ? undefined : { path: args.path, external: true });
  },
};

/** Compiles every service entry; resolves with the output files' sizes in bytes. */
export async function buildServices(log: (line: string) => void = console.log): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  await Promise.all(Object.entries(ENTRIES).map(async ([service, entries]) => {
    const result = await build({
      entryPoints: entries.map((entry) => join(root, 'services', service, 'src', `${entry}.ts`)),
      outdir: join(root, 'services', service, 'dist'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      sourcemap: true,
      metafile: true,
      logLevel: 'warning',
      plugins: [externalDependencies],
      // Keeps names in stack traces and pino's error serialisation readable.
      keepNames: true,
    });
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith('.js')) sizes[file.replace(/^.*services\//, 'services/')] = output.bytes;
    }
  }));
  for (const [file, bytes] of Object.entries(sizes).sort()) log(`  ${file}  ${(bytes / 1024).toFixed(0)} KiB`);
  return sizes;
}

/** Builds the web client with Vite into web/dist. @throws Error when Vite fails. */
export function buildWeb(): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'web'), stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status ?? result.signal})`);
}

async function main(): Promise<void> {
  const started = Date.now();
  // `--web`: the client alone, for `npm run dev` (its services run from source).
  if (process.argv.includes('--web')) {
    buildWeb();
    console.log(`built the web client in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  console.log('building the services (esbuild)…');
  await buildServices();
  console.log('building the web client (vite build)…');
  buildWeb();
  const info = { builtAt: new Date().toISOString(), node: process.versions.node };
  mkdirSync(join(root, 'services/cli/dist'), { recursive: true });
  writeFileSync(join(root, 'services/cli/dist/build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
