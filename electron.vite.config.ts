import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from './src-main/host/csp';
import { compileHint } from './scripts/compile-hints.mjs';

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The CSP as a meta tag too, so it holds even where a response header is not added. */
const cspMeta = (): Plugin => ({
  name: 'postdesk-csp-meta',
  apply: 'build', // the dev server's inline refresh preamble gets its relaxed policy from window.ts
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy({ meta: true }) },
      injectTo: 'head-prepend',
    },
  ],
});

/**
 * The desktop build: main (src-main/app/main.ts), the sandboxed preload and the renderer, into out/.
 * The preload bundles its dependencies (zod, the contract): a sandboxed preload cannot require them.
 */
export default defineConfig(({ command }) => ({
  main: {
    // Only `electron-vite dev` builds a main process that may load the dev server (src-main/app/build-flags.ts).
    define: { __POSTDESK_DEV_BUILD__: JSON.stringify(command === 'serve') },
    build: {
      outDir: at('./out/main'),
      rollupOptions: { input: { index: at('./src-main/app/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: at('./out/preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: at('./src-preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: at('./src-renderer'),
    base: './',
    plugins: [react(), cspMeta()],
    build: {
      outDir: at('./out/renderer'),
      target: 'es2022',
      rollupOptions: {
        input: { index: at('./src-renderer/index.html') },
        // The Posts chunks compiled as they load (scripts/compile-hints.mjs).
        output: { postBanner: compileHint },
      },
    },
  },
}));
