// The part of undici the built CLI uses, for vite.cli.config.ts: undici's own index loads fetch, WebSocket, the
// cache stores and the mocks as well, which is about half of a `postdesk accounts`'s start-up. The names are
// exported explicitly, so a build that imports any other name from 'undici' fails instead of getting undefined.
// `request` is undici's index's: the same argument checks, on the global dispatcher unless one is given.
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import api from 'undici/lib/api/index.js';
import errors from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

Object.assign(Dispatcher.prototype, api);

export { Agent, Dispatcher, ProxyAgent, errors };

export function request(url, opts, handler) {
  if (typeof opts === 'function') {
    handler = opts;
    opts = null;
  }
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') throw new errors.InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new errors.InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return api.request.call(
    dispatcher,
    {
      ...opts,
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET'),
    },
    handler,
  );
}
