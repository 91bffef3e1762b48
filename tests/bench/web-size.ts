/**
 * The home route's JavaScript, gzipped (at most 150 KB; no peer): what a
 * visitor's browser downloads and runs as script to show `/`. Read from a fresh production
 * build's Vite manifest; sizes are gzip level 9 of the built files, in KB (1000 bytes).
 *
 * Counted as the home route's JavaScript, for an Estonian page (the default) and for an English
 * one:
 * - at start: the entry chunk and every chunk it imports statically (recursively): the app
 *   frame and the home page; plus the first page's texts in the page's language
 *   (START_TEXT_MODULES: one chunk per language, which main.tsx imports before the first render
 *   and the HTML preloads), with their static imports;
 * - the chunks the home page loads lazily while it renders (HOME_LAZY_MODULES: the route map's
 *   code) and their static imports not already counted.
 * Other routes' lazy chunks are not counted.
 *
 * Reported beside it, not in it: the route map's countries (HOME_DATA_ASSETS, atlas.json),
 * fetched as JSON data (response.json()), never parsed or run as script, so not JavaScript;
 * their gzipped size has a row of its own, and so has the home route with them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '@sinilill/config';
import { times, verdict, type Row } from './report';

/** Source modules the home page imports dynamically while it renders (manifest keys, under web/). */
export const HOME_LAZY_MODULES = ['src/components/ui/route-map/route-map.tsx'];
/** Static files the home page fetches as data (not script) while it renders (manifest keys). */
export const HOME_DATA_ASSETS = ['src/components/ui/route-map/atlas.json'];
/** The first page's texts, per language: the page's language's chunk is loaded before the first render. */
export const START_TEXT_MODULES = { et: 'src/app/start-resources-et.ts', en: 'src/app/start-resources-en.ts' };

interface ManifestChunk { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean }

export interface HomeRouteSize {
  /** Gzipped KB of the JavaScript loaded at start by an Estonian page (texts included). */
  initialJsKb: number;
  /** Gzipped KB of the home page's lazy chunks (not already counted). */
  lazyJsKb: number;
  /** initialJsKb + lazyJsKb: the home route's JavaScript, Estonian page. */
  totalJsKb: number;
  /** The same for an English page (its texts' chunk instead of Estonian's). */
  englishTotalJsKb: number;
  /** Files in totalJsKb. */
  files: number;
  /** Gzipped KB of the data the home page fetches (HOME_DATA_ASSETS): not JavaScript. */
  dataKb: number;
}

/** Builds the web client (vite build) and adds up the home route's JavaScript. */
export function measureHomeRoute(): HomeRouteSize {
  const web = join(repoRoot, 'web');
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: web, stdio: 'inherit' });
  const manifest = JSON.parse(readFileSync(join(web, 'dist/.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gzipped = (file: string) => gzipSync(readFileSync(join(web, 'dist', file)), { level: 9 }).length;
  const chunk = (key: string): ManifestChunk => {
    const found = manifest[key];
    if (!found) throw new Error(`${key} is not in the build's manifest: update web-size.ts`);
    return found;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('no entry chunk in the Vite manifest');

  /** Bytes of the home route for a page in `lang`, and the files counted. */
  const homeRoute = (lang: keyof typeof START_TEXT_MODULES) => {
    const counted = new Set<string>();
    const closure = (key: string): number => {
      const { file, imports = [] } = chunk(key);
      if (counted.has(file)) return 0;
      counted.add(file);
      return gzipped(file) + imports.reduce((sum, next) => sum + closure(next), 0);
    };
    const initial = closure(entry) + closure(START_TEXT_MODULES[lang]);
    const lazy = HOME_LAZY_MODULES.reduce((sum, key) => sum + closure(key), 0);
    return { initial, lazy, files: counted.size };
  };
  const et = homeRoute('et');
  const en = homeRoute('en');
  const data = HOME_DATA_ASSETS.reduce((sum, key) => sum + gzipped(chunk(key).file), 0);
  return {
    initialJsKb: et.initial / 1000,
    lazyJsKb: et.lazy / 1000,
    totalJsKb: (et.initial + et.lazy) / 1000,
    englishTotalJsKb: (en.initial + en.lazy) / 1000,
    files: et.files,
    dataKb: data / 1000,
  };
}

/** The ceiling for the home route's JavaScript with its lazy chunks, gzipped KB. */
export const HOME_ROUTE_TARGET_KB = 150;

/** The bench table's rows for the home route. */
export function webSizeRows(home: HomeRouteSize): Row[] {
  const ceiling = (kb: number) => ({ ratio: `${times(kb, HOME_ROUTE_TARGET_KB)} limit (no peer)`, target: `≤ ${HOME_ROUTE_TARGET_KB} KB (${verdict(kb <= HOME_ROUTE_TARGET_KB)})` });
  return [
    { measure: 'home route JavaScript, gzipped: at start (Estonian page)', result: `${home.initialJsKb.toFixed(1)} KB`, ratio: '', target: '' },
    { measure: `home route JavaScript, gzipped: with the lazy route map (Estonian page, ${home.files} files)`, result: `${home.totalJsKb.toFixed(1)} KB`, ...ceiling(home.totalJsKb) },
    { measure: 'home route JavaScript, gzipped: with the lazy route map (English page)', result: `${home.englishTotalJsKb.toFixed(1)} KB`, ...ceiling(home.englishTotalJsKb) },
    { measure: "home route data, gzipped: the route map's countries (JSON, not script)", result: `${home.dataKb.toFixed(1)} KB`, ratio: '', target: '' },
    { measure: 'home route JavaScript and data, gzipped (Estonian page)', result: `${(home.totalJsKb + home.dataKb).toFixed(1)} KB`, ratio: '', target: '' },
  ];
}
