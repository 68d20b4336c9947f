import { defineConfig } from '@playwright/test';

/**
 * The desktop launch tests (test/desktop): Playwright's `_electron` against the built app. Run them with
 * `npm run test:desktop` (test/desktop/run.ts), which says so and exits 77 where no Electron runtime is
 * installed. One app at a time: each test launches its own, with a profile of its own.
 */
export default defineConfig({
  testDir: 'test/desktop',
  outputDir: 'test-results/desktop',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: { trace: 'retain-on-failure' },
});
