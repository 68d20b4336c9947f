import { dirname, join } from 'node:path';
import { LIMITS, type Automation } from '../../../src-shared/api';
import { ensurePrivateDir, writePrivateFile } from '../files';

export interface RunFiles {
  readonly runDir: string;
  readonly taskFile: string;
  readonly runJsonFile: string;
  readonly outputFile: string;
  readonly logFile: string;
}

export function runFiles(runDir: string): RunFiles {
  return {
    runDir,
    taskFile: join(runDir, 'task.md'),
    runJsonFile: join(runDir, 'run.json'),
    outputFile: join(runDir, 'output.json'),
    logFile: join(runDir, 'run.log'),
  };
}

export interface RunInputs {
  readonly automation: Automation;
  readonly runId: string;
  readonly scheduledFor: string | null;
  readonly queue: 'local' | 'legacy';
  readonly skillMarkdown: string | null;
}

/** task.md: the automation's instructions, then the skill's markdown (fetched by id and version). */
export function taskMarkdown(i: RunInputs): string {
  const parts = [`# ${i.automation.name}`, '', i.automation.instructions.trim(), ''];
  if (i.automation.skill && i.skillMarkdown !== null) {
    parts.push(
      '---',
      '',
      `<!-- skill ${i.automation.skill.id}@${i.automation.skill.version} -->`,
      '',
      i.skillMarkdown.trim(),
      '',
    );
  }
  return parts.join('\n');
}

/**
 * Writes the agent's inputs into its own run directory. run.json holds what the agent may need to know,
 * and no credential: the executor makes every service call itself.
 */
export async function writeRunInputs(files: RunFiles, i: RunInputs): Promise<void> {
  // The agent's instructions and everything it writes stay with this user.
  await ensurePrivateDir(dirname(files.runDir));
  await ensurePrivateDir(files.runDir);
  const a = i.automation;
  const runJson = {
    run_id: i.runId,
    scheduled_for: i.scheduledFor,
    queue: i.queue,
    automation: {
      id: a.id,
      name: a.name,
      revision: a.revision,
      execution_mode: a.execution_mode,
      schedule: a.schedule,
      skill: a.skill ?? null,
      targets: a.targets.map((t) => ({ social_account_id: t.social_account_id, platform: t.platform })),
    },
    output_file: files.outputFile,
    output_format: {
      caption: `string, at most ${LIMITS.captionLength} characters (required)`,
      title: `string, 1 to ${LIMITS.directUploadTitle.max} characters`,
      media: `up to ${LIMITS.mediaUrls} file paths (JPEG, PNG, WebP or MP4), relative to the run directory or absolute`,
      slides: `up to ${LIMITS.slides} of {text (at most ${LIMITS.slideTextLength}), path or url, aspect_ratio}`,
      metadata: 'object',
    },
    steps: '::step <id> <started|completed|failed|info> <message> on stdout becomes a run event',
  };
  // Replaced whole, never written through: a resumed run's folder holds what its last agent left there.
  const inRuns = { root: dirname(files.runDir) };
  await writePrivateFile(files.taskFile, taskMarkdown(i), inRuns);
  await writePrivateFile(files.runJsonFile, `${JSON.stringify(runJson, null, 2)}\n`, inRuns);
}
