// Vite: the web client builds to web/dist; in development /api goes to the gateway
// (or a single API) named by API_URL.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  // The manifest lets `npm run bench` add up the home route's JavaScript (tests/bench/web-size.ts).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
  // `vite preview` uses server.proxy too; said here so the preview's behaviour is on record.
  preview: { proxy: { '/api': { target: apiUrl, changeOrigin: true } } },
});
