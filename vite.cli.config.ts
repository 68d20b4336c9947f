import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { deferHttp2, isUndiciH2 } from './scripts/lazy-http2.mjs';

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const ROOT = at('./');

/**
 * Left to node_modules (scripts/cli-runtime.cjs says which, and why; the desktop app unpacks the same list).
 * Everything else is bundled: loading a few chunks is much faster than resolving and reading the hundreds of
 * files zod and undici are made of.
 */
const { CLI_EXTERNAL: EXTERNAL } = createRequire(import.meta.url)('./scripts/cli-runtime.cjs') as {
  CLI_EXTERNAL: readonly string[];
};
// Bare 'prom-client' goes through its alias below (its files stay external); listed here, it would skip the alias.
const isExternal = (id: string): boolean =>
  id !== 'prom-client' && EXTERNAL.some((p) => id === p || id.startsWith(`${p}/`));

/** See scripts/lazy-http2.mjs: node:http2 only on the first HTTP/2 connection, which the CLI never makes. */
const lazyHttp2 = (): Plugin => ({
  name: 'postdesk-cli-lazy-http2',
  transform: (code, id) => (isUndiciH2(id) ? deferHttp2(code) : null),
});

/**
 * out/cli/inputs.json: every file of the repository the build read. bin/postdesk.js compares their times with the
 * build's in a source checkout and runs the sources instead when one is newer, so no one runs a stale build.
 */
const listInputs = (): Plugin => ({
  name: 'postdesk-cli-inputs',
  generateBundle(_options, bundle) {
    const ids = new Set<string>();
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk') for (const id of chunk.moduleIds) ids.add(id);
    }
    const inputs = [
      ...new Set(
        [...ids]
          .filter((id) => id.startsWith(ROOT) && !id.includes('/node_modules/'))
          .map((id) => relative(ROOT, id))
          .concat('package.json', 'vite.cli.config.ts'),
      ),
    ].sort();
    this.emitFile({ type: 'asset', fileName: 'inputs.json', source: `${JSON.stringify(inputs, null, 1)}\n` });
  },
});

/**
 * Written beside out/cli and swapped in when complete, so a `postdesk` started during a build (a test, another
 * terminal) finds either the old build or the new one, never half of one; without out/cli it runs the sources.
 */
const OUT = at('./out/cli');
const STAGING = at(`./out/.cli-build-${process.pid}`);
const swapIn = (): Plugin => ({
  name: 'postdesk-cli-swap-in',
  closeBundle() {
    const old = `${STAGING}-old`;
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(STAGING, OUT);
    rmSync(old, { recursive: true, force: true });
  },
});

/**
 * The `postdesk` CLI built for Node into out/cli, which bin/postdesk.js loads: a small entry that parses the
 * arguments and lists the commands, and one chunk per command module, loaded when that command runs (see
 * src-main/cli/commands/index.ts). Chunks sit two levels below out/, where the web host's
 * `new URL('../../../out/web/', import.meta.url)` finds the renderer build.
 */
export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  plugins: [lazyHttp2(), listInputs(), swapIn()],
  ssr: { noExternal: true },
  // undici's index also loads fetch, WebSocket, caches and mocks, which the CLI never uses: see the file.
  // twitter-text (X's caption count) requires `punycode`, which Node resolves to its deprecated built-in and warns
  // about on stderr (DEP0040); the trailing slash takes the npm package of the same name instead. prom-client's
  // index loads its Pushgateway, cluster and default metrics, which an idle executor never uses.
  resolve: {
    alias: [
      { find: /^undici$/, replacement: at('./scripts/undici-lite.mjs') },
      { find: /^punycode$/, replacement: 'punycode/' },
      { find: /^prom-client$/, replacement: at('./scripts/prom-client-lite.mjs') },
    ],
  },
  build: {
    ssr: true,
    outDir: STAGING,
    emptyOutDir: true,
    target: 'node22.12',
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: { postdesk: at('./src-main/cli/main.ts') },
      external: isExternal,
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
});
