import type { AddressInfo } from 'node:net';
import { nodeHttp } from '../common/node-http';
import type { ExecutorMetrics } from './metrics';

/** What `POST /drain` does: the executor's `drain()`, answering the runs it still waits on. */
export interface DrainControl {
  drain(): { readonly state: string; readonly activeRuns: number };
}

export interface MetricsServeOptions {
  /**
   * The address to listen on; default 127.0.0.1. Only an operator's explicit choice (`--metrics-host`) widens
   * it: in a pod, the kubelet's probes and Prometheus reach the pod IP, never its loopback. Bound so, the
   * figures are open to whoever reaches the address (the pod network, as for any exporter), and the Host check
   * below, which guards a desktop's browser against DNS rebinding, cannot know the names they use.
   */
  readonly host?: string;
  readonly drain?: DrainControl;
}

/** The header `POST /drain` needs: a web page cannot send it without a CORS preflight this server refuses. */
export const DRAIN_HEADER = 'x-postdesk-control';

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export interface MetricsServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `/metrics` (Prometheus text) and `/healthz` (200 while the last sync is recent, else 503) on
 * loopback by default. There, a request whose Host is not this loopback address is refused, so a web page
 * cannot read the figures through a DNS name that points at 127.0.0.1. `POST /drain` (with `o.drain`) is a
 * control, not a figure: whatever the bind address, only from a loopback peer, with a loopback Host and the
 * `x-postdesk-control: drain` header (which no form can send), so only the machine or pod itself drains it.
 */
export async function serveMetrics(
  metrics: ExecutorMetrics,
  port: number,
  o: MetricsServeOptions = {},
): Promise<MetricsServer> {
  const bindHost = o.host ?? '127.0.0.1';
  const loopbackOnly = bindHost === '127.0.0.1' || bindHost === 'localhost';
  const server = nodeHttp().createServer((req, res) => {
    const actual = (server.address() as AddressInfo).port;
    const host = req.headers.host ?? '';
    const loopbackHost = host === `127.0.0.1:${actual}` || host === `localhost:${actual}`;
    if (loopbackOnly && !loopbackHost) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/drain' && o.drain) {
      const local = LOOPBACK_PEERS.has(req.socket.remoteAddress ?? '') && loopbackHost;
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('method not allowed\n');
      } else if (!local || req.headers[DRAIN_HEADER] !== 'drain') {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden\n');
      } else {
        const d = o.drain.drain();
        res
          .writeHead(202, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(`${JSON.stringify({ state: d.state, active_runs: d.activeRuns })}\n`);
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    if (path === '/metrics') {
      metrics.text().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
      );
    } else if (path === '/healthz') {
      const h = metrics.health();
      res
        .writeHead(h.healthy ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(
          `${JSON.stringify({ healthy: h.healthy, last_sync_at: h.lastSyncAt, age_seconds: h.ageSeconds })}\n`,
        );
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: /metrics or /healthz\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    // What this machine's tools (and `executor drain --port`) use: loopback unless bound to one other address.
    url: `http://${['0.0.0.0', '::', 'localhost'].includes(bindHost) ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost}:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
