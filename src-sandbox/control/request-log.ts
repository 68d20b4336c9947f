import type { FastifyInstance } from 'fastify';

/** Distinct "METHOD path" keys kept; past this, new ones are counted under one overflow key. */
const MAX_KEYS = 500;
const OVERFLOW = '(other)';

/**
 * How many `/api/` requests reached the sandbox, per method and path (no query, no body, no key): what a test
 * counts to prove that, say, 30 posts moved in one `PATCH /api/cli/posts/bulk`. Counted as they arrive, faults
 * included. `DELETE /_sandbox/requests` starts again from zero.
 */
export interface RequestLog {
  note(method: string, path: string): void;
  counts(): Record<string, number>;
  clear(): void;
}

export function createRequestLog(): RequestLog {
  const counts = new Map<string, number>();
  return {
    note(method, path) {
      if (!path.startsWith('/api/')) return;
      let key = `${method} ${path}`;
      if (!counts.has(key) && counts.size >= MAX_KEYS) key = OVERFLOW;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    counts: () => Object.fromEntries(counts),
    clear: () => counts.clear(),
  };
}

export function registerRequestLogRoutes(app: FastifyInstance, log: RequestLog): void {
  app.get('/_sandbox/requests', async () => ({ requests: log.counts() }));
  app.delete('/_sandbox/requests', async () => {
    log.clear();
    return { ok: true };
  });
}
