import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
// With their extensions: Vite's native config loader, its next default, needs them.
import { MissingToolsReporter } from './test/helpers/missing-tools-reporter.ts';
import { TIMEOUTS } from './test/helpers/timeouts.ts';

/** Files in flight at once: the cores plus one, and at least three. `VITEST_MAX_WORKERS` overrides it. */
const WORKERS = Math.max(3, availableParallelism() + 1);

export default defineConfig({
  test: {
    // Two projects, so that `--project unit` runs the fast ones alone (`npm run test:quick`).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Builds out/cli once when it is older than its sources, so that every spawned `postdesk` runs the build.
          globalSetup: ['test/helpers/build-cli.ts'],
          include: [
            'test/contract/**/*.test.ts',
            'test/integration/**/*.test.ts',
            'test/security/**/*.test.ts',
          ],
        },
      },
    ],
    environment: 'node',
    // The bases; test/helpers/scale-timeouts.ts scales them by the machine's load as each file starts.
    testTimeout: TIMEOUTS.test,
    hookTimeout: TIMEOUTS.hook,
    setupFiles: ['test/helpers/scale-timeouts.ts'],
    // The closing lines name the tests skipped for a missing optional tool, and why (test/helpers/system-tools.ts).
    reporters: ['default', new MissingToolsReporter()],
    pool: 'forks',
    // Vitest's default in a run is one worker fewer than the cores: one on a two-core machine, so every file ran
    // after the last. Most of the suite's time is waiting, not computing: on spawned CLIs and executors, on a
    // sandbox's latency and faults, on ffmpeg, Chromium and the real clock. More files than cores in flight fill
    // that waiting with other files' work; the limits scale with the load they add (timeouts.ts).
    maxWorkers: WORKERS,
  },
});
