// @ts-check
/**
 * What the built CLI loads from node_modules at run time rather than from its bundle: vite.cli.config.ts keeps
 * these external, and electron-builder.config.cjs unpacks them (with all they depend on) beside app.asar, so that
 * the `postdesk` command the desktop app puts on the PATH can run them with the user's Node.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, for electron-builder's config */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Native modules and the packages that find files beside themselves at run time (the ffmpeg/ffprobe binaries),
 * and the sandbox's server stack and the web host's WebSocket server, which load only with --sandbox,
 * `postdesk sandbox` or `postdesk web`.
 */
const CLI_EXTERNAL = [
  'better-sqlite3',
  '@napi-rs/keyring',
  '@ffmpeg-installer/ffmpeg',
  '@ffprobe-installer/ffprobe',
  'fastify',
  '@fastify/static',
  '@fastify/websocket',
  '@modelcontextprotocol/sdk',
  'ws',
  'prom-client',
];

/**
 * CLI_EXTERNAL and every package they depend on (dependencies and the optional ones installed here), as found at
 * the top of `root`/node_modules, sorted. A package nested in another's own node_modules goes with its parent.
 * @param {string} root
 * @returns {string[]}
 */
function cliRuntimePackages(root) {
  const found = new Set();
  const visit = (/** @type {string} */ name) => {
    if (found.has(name)) return;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return;
    found.add(name);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep);
  };
  for (const name of CLI_EXTERNAL) visit(name);
  return [...found].sort();
}

module.exports = { CLI_EXTERNAL, cliRuntimePackages };
