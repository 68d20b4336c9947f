/**
 * A read-only window into main for the desktop launch tests (test/desktop): what no page can see, the
 * tray as Electron holds it and the executor's state. It exists only in an unpackaged run started with
 * POSTDESK_TEST_HOOKS=1 (a packaged app never has it, whatever its environment), and it can change
 * nothing: each call returns a fresh copy of plain data.
 */
import type { ExecutorState } from './capabilities';
import type { TrayShown } from './tray';

export const TEST_HOOKS_ENV = 'POSTDESK_TEST_HOOKS';
/** The global the tests read with `electronApp.evaluate(() => globalThis.__postdeskTestHooks…)`. */
export const TEST_HOOKS_GLOBAL = '__postdeskTestHooks';

export function testHooksEnabled(
  env: Readonly<Record<string, string | undefined>>,
  isPackaged: boolean,
): boolean {
  return !isPackaged && env[TEST_HOOKS_ENV] === '1';
}

export type TestHookView = Readonly<{
  tray: TrayShown | null;
  executor: Readonly<{ state: ExecutorState; activeRuns: number }> | null;
}>;

export type TestHooks = Readonly<{ view: () => TestHookView }>;

/** Puts the hooks on `target` (main's globalThis) under TEST_HOOKS_GLOBAL; returns the removal. */
export function exposeTestHooks(target: object, read: () => TestHookView): () => void {
  const hooks: TestHooks = { view: () => structuredClone(read()) };
  Object.defineProperty(target, TEST_HOOKS_GLOBAL, { value: Object.freeze(hooks), configurable: true });
  return () => void Reflect.deleteProperty(target, TEST_HOOKS_GLOBAL);
}
