// The part of prom-client the built CLI uses, for vite.cli.config.ts. prom-client's index also loads the
// Pushgateway (http, https, zlib), the cluster aggregator and the default process metrics (perf_hooks, v8 and
// @opentelemetry/api): about 18 MiB of resident memory in an idle `postdesk executor`, which attaches its metrics
// always but serves them only with --metrics-port. The default metrics load on the first call, which is that flag.
// The names are exported explicitly, so a build that imports any other name from 'prom-client' fails.
import { createRequire } from 'node:module';
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';

const require = createRequire(import.meta.url);

export { Counter, Gauge, Histogram, Registry };

export function collectDefaultMetrics(config) {
  return require('prom-client/lib/defaultMetrics.js')(config);
}
