import { z } from 'zod';

export const FaultSettings = z.object({
  error_rate: z.number().min(0).max(1).optional(),
  reset_rate: z.number().min(0).max(1).optional(),
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  paths: z.array(z.string().min(1)).max(100).optional(),
  seed: z.number().int().optional(),
});
export type FaultSettings = z.infer<typeof FaultSettings>;

export interface FaultDecision {
  error: boolean;
  reset: boolean;
  latencyMs: number;
}

/** mulberry32: a tiny seeded PRNG, enough for a repeatable fault sequence. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Injected faults for `/api/` requests. Each subject request draws two numbers (error, then reset)
 * whether or not a fault fires, so a seed gives the same sequence for the same request order.
 */
export class Faults {
  private settings: FaultSettings = {};
  private random: () => number = Math.random;

  current(): FaultSettings {
    return this.settings;
  }

  /** Replaces the settings; posting the same seed again restarts the same sequence. */
  set(settings: FaultSettings): void {
    this.settings = settings;
    this.random = settings.seed === undefined ? Math.random : mulberry32(settings.seed);
  }

  private active(): boolean {
    const s = this.settings;
    return (s.error_rate ?? 0) > 0 || (s.reset_rate ?? 0) > 0 || (s.latency_ms ?? 0) > 0;
  }

  /**
   * `path` is the matched route's (matchedPath): the router decodes `%70osts` into `posts`, so the raw URL
   * would let a spelling of a route slip past the faults set for it (docs/security.md, Guards).
   */
  decide(path: string | null): FaultDecision | null {
    if (path === null || !this.active() || !path.startsWith('/api/')) return null;
    const { paths } = this.settings;
    if (paths && paths.length > 0 && !paths.some((p) => path.startsWith(p))) return null;
    const errorDraw = this.random();
    const resetDraw = this.random();
    const error = errorDraw < (this.settings.error_rate ?? 0);
    return {
      error,
      reset: !error && resetDraw < (this.settings.reset_rate ?? 0),
      latencyMs: this.settings.latency_ms ?? 0,
    };
  }
}

/**
 * The path the router matched, as it read it: the route's pattern with each parameter replaced by the decoded
 * value it was given (`/api/skills/:id` with `id` "a b" is `/api/skills/a b`). Null when no route matched: a
 * request nothing serves changes nothing, and its 404 needs no fault.
 */
export function matchedPath(route: string | undefined, params: unknown): string | null {
  if (route === undefined) return null;
  const values = (params ?? {}) as Record<string, unknown>;
  return route.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const value = values[name ?? '*'];
    return typeof value === 'string' ? value : whole;
  });
}
