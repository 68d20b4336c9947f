/**
 * A vitest setup file: before each test file is collected, its default test and hook limits become the bases of
 * timeouts.ts times the load at that moment (or the load the run was told it shares the machine with), so a file
 * that starts on a busy machine gets the time it needs.
 */
import { vi } from 'vitest';
import { TIMEOUTS, runFactor, scaled } from './timeouts';

/** The factor this file's limits were scaled by. */
export const appliedFactor = runFactor();
vi.setConfig({
  testTimeout: scaled(TIMEOUTS.test, appliedFactor),
  hookTimeout: scaled(TIMEOUTS.hook, appliedFactor),
});
