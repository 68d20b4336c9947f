import { join } from 'node:path';
import type { Logger } from '../common/logger';
import type { Clock } from './clock';
import type { ExecutorConfig } from './config';
import type { Journal } from './journal';
import { schedulePruning } from './prune';

/** Prunes old runs on a schedule when the settings give a retention policy; null when they do not. */
export function pruneOnSchedule(
  config: Pick<ExecutorConfig, 'retention' | 'dataDir'>,
  journal: Journal,
  clock: Clock,
  logger: Logger,
): { stop(): void } | null {
  const policy = config.retention;
  if (!policy) return null;
  return schedulePruning({
    runsDir: join(config.dataDir, 'runs'),
    journal,
    clock,
    policy,
    log: (line) => logger.info(line),
  });
}
