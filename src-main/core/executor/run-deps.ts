import { join } from 'node:path';
import type { Automation } from '../../../src-shared/api';
import type { ExecutorConfig, Tuning } from './config';
import type { RunDeps } from './run-context';

/** What one run needs from its executor: the settings as they are when it starts, and the shared parts. */
export function runDepsOf(
  config: ExecutorConfig,
  tuning: Readonly<Tuning>,
  a: Pick<Automation, 'id'>,
  shared: Pick<
    RunDeps,
    'media' | 'journal' | 'clock' | 'executorId' | 'agent' | 'onStep' | 'onLog' | 'requestSync' | 'logger'
  >,
): RunDeps {
  return {
    ...shared,
    api: config.api,
    runsDir: join(config.dataDir, 'runs'),
    agent: config.agentFor?.(a.id) ?? shared.agent,
    folderFor: (automationId) => config.folderFor?.(automationId) ?? config.folder,
    runTimeoutMs: tuning.runTimeoutMs,
    leaseSeconds: tuning.leaseSeconds,
    directUploadPollMs: tuning.directUploadPollMs,
    directUploadTimeoutMs: tuning.directUploadTimeoutMs,
    secrets: config.secrets ?? [],
    maxEventsPerRun: tuning.maxEventsPerRun,
    stepHoldMs: tuning.stepHoldMs,
    retryBaseMs: tuning.retryBaseMs,
  };
}
