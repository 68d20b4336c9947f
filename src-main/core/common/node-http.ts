import type * as Http from 'node:http';
import type * as Https from 'node:https';

/**
 * node:http and node:https, taken with `process.getBuiltinModule` rather than imported. An ESM import of
 * either builds its namespace from every export, and that reads node:http's lazy `WebSocket`, `CloseEvent` and
 * `MessageEvent` getters (https its `globalAgent`), which load Node's own bundled undici: about 13 MiB of
 * resident memory a process that only serves or sends plain HTTP never uses (docs/bench.md, "The idle
 * executor"). `import type` from them stays free.
 */
export const nodeHttp = (): typeof Http => process.getBuiltinModule('node:http');
export const nodeHttps = (): typeof Https => process.getBuiltinModule('node:https');
