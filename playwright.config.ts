import { defineConfig } from '@playwright/test';
import { TIMEOUTS, scaled } from './test/helpers/timeouts';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Scaled by the load when the run starts, or the load `npm test` says it shares (test/helpers/timeouts.ts).
  timeout: scaled(TIMEOUTS.e2e),
  expect: { timeout: scaled(TIMEOUTS.e2eExpect) },
  // Three workers, each with its own `postdesk web --sandbox` (the worker-scoped `host` of support/fixtures.ts), so
  // no flow sees another's data. A flow spends most of its time waiting on the page, the host and the sandbox: a
  // whole run keeps about a quarter of one core busy, so three flows at once still leave room on two cores. `npm
  // test` never runs vitest beside them (scripts/test-all.mjs). A spec file stays on one worker, in order.
  // `--workers 1` restores the single host; `--shard i/n` splits the files across machines.
  workers: 3,
  reporter: [['list']],
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    headless: true,
    // Transitions finish at once: axe and screenshots read the colours a person sees once a scheme or state
    // settles, not a frame of a fade (a colour-contrast check once caught one mid-transition after a switch).
    reducedMotion: 'reduce',
  },
});
