import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runFolderAgent } from './folder-agent';

/**
 * The folder agent as a process: `postdesk executor folder-agent [--folder DIR] [--state FILE]`.
 * It reads POSTDESK_RUN_DIR / POSTDESK_OUTPUT like any agent. Its folder is `--folder`, else
 * POSTDESK_FOLDER, which the executor sets from the user's folder for the automation; never a line of
 * task.md, which the service writes. Exit 0 on success, 1 when there is nothing to publish or it fails.
 */
export async function folderAgentMain(opts: { folder?: string; state?: string }): Promise<number> {
  const runDir = process.env.POSTDESK_RUN_DIR ?? process.cwd();
  const outputFile = process.env.POSTDESK_OUTPUT ?? join(runDir, 'output.json');
  const folder = opts.folder ?? process.env.POSTDESK_FOLDER;
  let runId: string | null = null;
  try {
    const run = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as { run_id?: unknown };
    runId = typeof run.run_id === 'string' ? run.run_id : null;
  } catch {
    // run.json is optional when the agent is tried by hand.
  }
  if (!folder) {
    process.stderr.write(
      'folder agent: no folder (pass --folder, or set one for the automation: ' +
        '`postdesk config set automationFolders \'{"<automation id>":"<folder>"}\'`)\n',
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
