// For vite.cli.config.ts: undici's HTTP/2 client loads node:http2 when undici loads (about 10 MiB resident,
// nghttp2 and its JS), though the CLI never asks for HTTP/2. This rewrites undici's client-h2.js to load it on the
// first HTTP/2 connection. The constants it reads at load are names and codes fixed by the protocol (RFC 9113);
// test/unit/core/api/cli-lite-modules.test.ts holds them to node:http2's own.

const H2_REQUIRE = "http2 = require('node:http2')";

export const H2_CONSTANTS = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

/** Whether `id` is the module to rewrite. */
export const isUndiciH2 = (id) => id.replaceAll('\\', '/').endsWith('undici/lib/dispatcher/client-h2.js');

/**
 * client-h2.js with node:http2 deferred. Throws when undici's code no longer reads as expected (another use of
 * the module, or another way of loading it), so an update is reviewed rather than half rewritten.
 */
export function deferHttp2(code) {
  const uses = [...code.matchAll(/\bhttp2\.(\w+)/g)].map((m) => m[1]);
  if (!code.includes(H2_REQUIRE) || uses.join() !== 'connect') {
    throw new Error('undici client-h2.js changed: review scripts/lazy-http2.mjs');
  }
  const names = [...code.matchAll(/^\s+(HTTP2_\w+|NGHTTP2_\w+),?$/gm)].map((m) => m[1]);
  const missing = names.filter((n) => !(n in H2_CONSTANTS));
  if (missing.length > 0)
    throw new Error(`undici client-h2.js reads ${missing.join(', ')}: add to scripts/lazy-http2.mjs`);
  return code.replace(
    H2_REQUIRE,
    `http2 = { constants: ${JSON.stringify(H2_CONSTANTS)}, connect: (...a) => require('node:http2').connect(...a) }`,
  );
}
