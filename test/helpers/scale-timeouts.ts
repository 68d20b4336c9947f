/**
 * A vitest setup file: before each test file is collected, its default test and hook limits become the bases of
 * timeouts.ts times the load at that moment, so a file that starts on a busy machine gets the time it needs.
 */
import { vi } from 'vitest';
import { TIMEOUTS, loadFactor, scaled } from './timeouts';

/** The factor this file's limits were scaled by. */
export const appliedFactor = loadFactor();
vi.setConfig({
  testTimeout: scaled(TIMEOUTS.test, appliedFactor),
  hookTimeout: scaled(TIMEOUTS.hook, appliedFactor),
});
