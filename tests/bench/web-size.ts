/**
 * The home route's JavaScript, gzipped (issue 5 target, kept in issue 15 item 7's table: at most
 * 250 KB; no peer): what a visitor's browser downloads to show `/`. Read from a fresh production build's Vite manifest: the entry chunk and
 * every chunk it imports statically (recursively), plus the chunks the home page loads lazily
 * (HOME_LAZY_MODULES: the route map with its geodata) and their static imports. Other routes'
 * lazy chunks are not counted. Sizes are gzip level 9 of the built files, in KB (1000 bytes).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '@sinilill/config';
import { times, verdict, type Row } from './report';

/** Source modules the home page imports dynamically while it renders (manifest keys, under web/). */
export const HOME_LAZY_MODULES = ['src/components/ui/route-map/route-map.tsx'];

interface ManifestChunk { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean }

export interface HomeRouteSize {
  /** Gzipped KB of the JavaScript loaded at start. */
  initialJsKb: number;
  /** Gzipped KB of the home page's lazy chunks (not already counted). */
  lazyJsKb: number;
  totalJsKb: number;
  files: number;
}

/** Builds the web client (vite build) and adds up the home route's JavaScript. */
export function measureHomeRoute(): HomeRouteSize {
  const web = join(repoRoot, 'web');
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: web, stdio: 'inherit' });
  const manifest = JSON.parse(readFileSync(join(web, 'dist/.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const counted = new Set<string>();
  const gzipped = (file: string) => gzipSync(readFileSync(join(web, 'dist', file)), { level: 9 }).length;
  const closure = (key: string): number => {
    const chunk = manifest[key];
    if (!chunk || counted.has(chunk.file)) return 0;
    counted.add(chunk.file);
    return gzipped(chunk.file) + (chunk.imports ?? []).reduce((sum, next) => sum + closure(next), 0);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('no entry chunk in the Vite manifest');
  const initial = closure(entry);
  const lazy = HOME_LAZY_MODULES.reduce((sum, key) => {
    if (!manifest[key]) throw new Error(`${key} is not a chunk of the build: update HOME_LAZY_MODULES`);
    return sum + closure(key);
  }, 0);
  return { initialJsKb: initial / 1000, lazyJsKb: lazy / 1000, totalJsKb: (initial + lazy) / 1000, files: counted.size };
}

/** Issue 5's ceiling for the home route's JavaScript with its lazy chunks, gzipped KB. */
export const HOME_ROUTE_TARGET_KB = 250;

export function webSizeRows(home: HomeRouteSize): Row[] {
  return [
    { measure: `home route JavaScript, gzipped: at start (${home.files} files with the map)`, result: `${home.initialJsKb.toFixed(1)} KB`, ratio: '', target: '' },
    {
      measure: 'home route JavaScript, gzipped: with the lazy route map and geodata',
      result: `${home.totalJsKb.toFixed(1)} KB`,
      ratio: `${times(home.totalJsKb, HOME_ROUTE_TARGET_KB)} limit (no peer)`,
      target: `≤ ${HOME_ROUTE_TARGET_KB} KB (${verdict(home.totalJsKb <= HOME_ROUTE_TARGET_KB)})`,
    },
  ];
}
