import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutorMetrics } from './metrics';

export interface MetricsServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `/metrics` (Prometheus text) and `/healthz` (200 while the last sync is recent, else 503) on
 * loopback only. A request whose Host is not this loopback address is refused, so a web page cannot read
 * the figures through a DNS name that points at 127.0.0.1.
 */
export async function serveMetrics(metrics: ExecutorMetrics, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const actual = (server.address() as AddressInfo).port;
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${actual}` && host !== `localhost:${actual}`) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
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
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
