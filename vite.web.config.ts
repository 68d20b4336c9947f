import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compileHint } from './scripts/compile-hints.mjs';

/**
 * The renderer for `postdesk web` (and the e2e tests): src-renderer built to out/web. Relative asset
 * paths, because the app routes by hash and the same build may be served from any path.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src-renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    // The Posts chunks compiled as they load, not in the first paint of the timeline (scripts/compile-hints.mjs).
    rolldownOptions: { output: { postBanner: compileHint } },
  },
  server: { host: '127.0.0.1', strictPort: false },
  preview: { host: '127.0.0.1' },
});
