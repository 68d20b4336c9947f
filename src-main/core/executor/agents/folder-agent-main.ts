import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { folderFromTask, runFolderAgent } from './folder-agent';

/**
 * The folder agent as a process: `postdesk executor folder-agent [--folder DIR] [--state FILE]`.
 * It reads POSTDESK_RUN_DIR / POSTDESK_OUTPUT like any agent; without --folder, the folder comes from a
 * `folder: <path>` line of task.md. Exit 0 on success, 1 when there is nothing to publish or it fails.
 */
export async function folderAgentMain(opts: { folder?: string; state?: string }): Promise<number> {
  const runDir = process.env.POSTDESK_RUN_DIR ?? process.cwd();
  const outputFile = process.env.POSTDESK_OUTPUT ?? join(runDir, 'output.json');
  let folder = opts.folder ?? process.env.POSTDESK_FOLDER;
  let runId: string | null = null;
  try {
    const run = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as { run_id?: unknown };
    runId = typeof run.run_id === 'string' ? run.run_id : null;
  } catch {
    // run.json is optional when the agent is tried by hand.
  }
  if (!folder) {
    const task = await readFile(process.env.POSTDESK_TASK ?? join(runDir, 'task.md'), 'utf8').catch(() => '');
    folder = folderFromTask(task);
  }
  if (!folder) {
    process.stderr.write(
      'folder agent: no folder (pass --folder, set POSTDESK_FOLDER, or write "folder: <path>" in the instructions)\n',
    );
    return 1;
  }
  const result = await runFolderAgent({
    folder,
    outputFile,
    stateFile: opts.state,
    runId,
    say: (line) => process.stdout.write(`${line}\n`),
  });
  if (!result.ok) process.stderr.write(`folder agent: ${result.message}\n`);
  return result.ok ? 0 : 1;
}
