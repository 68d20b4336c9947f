/**
 * Time limits that follow the machine's load. A test that ends in 16 s on an idle machine can take 40 s on a
 * two-core machine that also runs other work, and a fixed limit then fails it for nothing: every limit of the
 * suite is a base (sized for an unloaded machine, with room to spare) times `loadFactor()`. The bases are
 * declared here once; vitest.config.ts, scale-timeouts.ts (per test file) and playwright.config.ts apply them.
 */
import { availableParallelism, loadavg } from 'node:os';

/** The bases, in ms: a test, a hook, a Playwright test, a Playwright expectation. */
export const TIMEOUTS = { test: 30_000, hook: 60_000, e2e: 60_000, e2eExpect: 5_000 } as const;

/** A limit never grows past this many times its base, so a hung test still ends. */
export const MAX_FACTOR = 4;

/**
 * How many times slower than idle this machine runs now: the last minute's load per core, at least 1 and at most
 * MAX_FACTOR (a load of 6 on 2 cores: 3).
 */
export function loadFactor(load = loadavg()[0] ?? 0, cores = availableParallelism()): number {
  const perCore = load / Math.max(1, cores);
  return Math.min(MAX_FACTOR, Math.max(1, Math.round(perCore * 100) / 100));
}

/**
 * The factor a run is told it will share the machine with (a number), set by whoever starts it beside other
 * work (vitest beside Playwright, say: `npm test` runs them one after the other), because the last minute's load
 * average lags behind work that has only just started.
 */
export const SHARED_FACTOR_ENV = 'POSTDESK_TEST_SHARED_FACTOR';

/** The load factor now, or the shared one when it is larger, within 1 and MAX_FACTOR: what the limits use. */
export function runFactor(
  load = loadavg()[0] ?? 0,
  shared = Number(process.env[SHARED_FACTOR_ENV] ?? 1),
): number {
  const floor = Number.isFinite(shared) ? Math.min(MAX_FACTOR, Math.max(1, shared)) : 1;
  return Math.max(loadFactor(load), floor);
}

/** `ms` scaled by the machine's load (or by `factor`), in whole ms. */
export function scaled(ms: number, factor = runFactor()): number {
  return Math.round(ms * factor);
}
