// Vite: the web client builds to web/dist; in development /api goes to the gateway
// (or a single API) named by API_URL.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import sharp from 'sharp';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';

/**
 * The first page's texts come in one chunk per language (src/app/resources.ts), which main.tsx
 * imports only once the entry has run. So that this costs no extra round trip, a line of script
 * in the built HTML asks for the page's language's chunk (modulepreload) while the entry is
 * still downloading. It reads the choice as src/lib/language.ts does: localStorage `lang` is
 * `eng` for English, anything else (or no storage) means Estonian. Build only: the dev server
 * serves modules one by one anyway.
 */
function preloadStartTexts(): Plugin {
  const chunks = { et: '/src/app/start-resources-et.ts', en: '/src/app/start-resources-en.ts' };
  let base = '/';
  return {
    name: 'sinilill:preload-start-texts',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const fileOf = (source: string) => {
          const chunk = Object.values(bundle ?? {}).find((output) => output.type === 'chunk' && output.facadeModuleId?.endsWith(source));
          if (!chunk) throw new Error(`preloadStartTexts: no chunk for ${source}`);
          return `${base}${chunk.fileName}`;
        };
        const [et, en] = [fileOf(chunks.et), fileOf(chunks.en)];
        const script =
          `(function(){var en=false;try{en=localStorage.getItem('lang')==='eng'}catch(e){}` +
          `var link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';` +
          `link.href=en?${JSON.stringify(en)}:${JSON.stringify(et)};document.head.appendChild(link);` +
          // The installable app's manifest in the page's language (appManifests below).
          `if(en){var m=document.querySelector('link[rel=manifest]');if(m)m.setAttribute('href',${JSON.stringify(`${base}${MANIFEST_FILES.en}`)})}})()`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

/** The web app manifests, one per language (index.html links Estonian's; the script above switches). */
const MANIFEST_FILES = { et: 'manifest.et.webmanifest', en: 'manifest.en.webmanifest' } as const;

/** The app's icons, drawn from the favicon (public/favicon.svg): file, size in px, purpose. */
const ICONS = [
  { file: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { file: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { file: 'icons/icon-maskable-512.png', size: 512, purpose: 'maskable' },
] as const;

/**
 * The installable app's manifests and icons, made at build time. The icons are
 * the favicon's flower rendered with sharp: `any` on a transparent ground; `maskable` on white
 * with the flower inside the middle 60 % (the safe zone is the middle 80 % circle). Names and
 * descriptions per language (the description is the footer's tagline, app/locales); colours
 * from app/global.css (--brand, --background). Build only.
 */
function appManifests(): Plugin {
  const web = fileURLToPath(new URL('.', import.meta.url));
  const read = (path: string) => readFileSync(`${web}${path}`, 'utf8');
  const tagline = (lang: 'et' | 'en') => (JSON.parse(read(`src/app/locales/${lang}.json`)) as { footer: { tagline: string } }).footer.tagline;
  const names = {
    et: { name: 'Sinilill – heategevuslik liikumisüritus', short_name: 'Sinilill' },
    en: { name: 'Sinilill – a charity movement event', short_name: 'Sinilill' },
  };
  let base = '/';
  return {
    name: 'sinilill:app-manifests',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async generateBundle() {
      const svg = Buffer.from(read('public/favicon.svg'));
      for (const icon of ICONS) {
        const flower = icon.purpose === 'maskable' ? Math.round(icon.size * 0.6) : icon.size;
        const drawn = await sharp(svg, { density: 72 * (flower / 24) * 2 }).resize(flower, flower).png().toBuffer();
        const source = icon.purpose === 'maskable'
          ? await sharp({ create: { width: icon.size, height: icon.size, channels: 4, background: '#ffffff' } })
            .composite([{ input: drawn, gravity: 'center' }]).png().toBuffer()
          : drawn;
        this.emitFile({ type: 'asset', fileName: icon.file, source });
      }
      for (const lang of ['et', 'en'] as const) {
        const manifest = {
          id: base,
          lang,
          ...names[lang],
          description: tagline(lang),
          start_url: base,
          scope: base,
          display: 'standalone',
          theme_color: '#006edd',
          background_color: '#f4f7fb',
          icons: ICONS.map((icon) => ({ src: `${base}${icon.file}`, sizes: `${icon.size}x${icon.size}`, type: 'image/png', purpose: icon.purpose })),
        };
        this.emitFile({ type: 'asset', fileName: MANIFEST_FILES[lang], source: `${JSON.stringify(manifest, null, 2)}\n` });
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    preloadStartTexts(),
    appManifests(),
    // The service worker (src/app/service-worker/sw.ts → dist/sw.js), registered by src/app/pwa.ts
    // after the first render; the manifests are appManifests'. Precached: the app shell's hashed
    // scripts, styles, pictures and the route map's data, not the admin console (never offline)
    // and not index.html (pages go to the network first: sw.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/app/service-worker',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,svg,png,webp,json}'],
        globIgnores: ['**/admin-*', '**/node_modules/**', 'sw.js'],
      },
    }),
  ],
  // The manifest lets `npm run bench` add up the home route's JavaScript (tests/bench/web-size.ts).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
  // `vite preview` uses server.proxy too; said here so the preview's behaviour is on record.
  preview: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
});
