import type { RUN_EVENT_STATUSES } from '../../../src-shared/api';

export type StepStatus = (typeof RUN_EVENT_STATUSES)[number];
export interface StepLine {
  readonly stepId: string;
  readonly status: StepStatus;
  readonly message: string;
}

const STEP_RE = /^::step\s+(\S{1,100})\s+(started|completed|failed|info)(?:\s+(.*))?$/;

/** `::step <id> <started|completed|failed|info> <message>` from an agent's stdout, else null. */
export function parseStepLine(line: string): StepLine | null {
  const m = STEP_RE.exec(line.trimEnd());
  if (!m) return null;
  return { stepId: m[1] as string, status: m[2] as StepStatus, message: (m[3] ?? '').slice(0, 2000) };
}
