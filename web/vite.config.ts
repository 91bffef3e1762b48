// Vite: the web client builds to web/dist; in development /api goes to the gateway
// (or a single API) named by API_URL.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
          `link.href=en?${JSON.stringify(en)}:${JSON.stringify(et)};document.head.appendChild(link)})()`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadStartTexts()],
  // The manifest lets `npm run bench` add up the home route's JavaScript (tests/bench/web-size.ts).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
  // `vite preview` uses server.proxy too; said here so the preview's behaviour is on record.
  preview: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
});
