// The typecheck of one tsconfig as `npm run typecheck` (package.json) runs it, build-info file included, so the
// runners that start it themselves (test-all.mjs, test-quick.mjs) share what tsc learnt in out/tsc.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Node's arguments for tsc on `tsconfig.<config>.json` (config: 'node' or 'web'). */
export const typecheckArgs = (config) => [
  require.resolve('typescript/bin/tsc'),
  '-p',
  `tsconfig.${config}.json`,
  '--noEmit',
  '--incremental',
  '--tsBuildInfoFile',
  join('out', 'tsc', `${config}.tsbuildinfo`),
];
