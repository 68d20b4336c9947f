import { join } from 'node:path';
import { acceptedUploadTypes, type Platform, type UploadContentType } from '../../../../src-shared/api';
import { readNoFollow } from '../../files';
import { runFolderAgent } from './folder-agent';

/** run.json is the executor's own, written before the agent starts; far smaller than this. */
const RUN_JSON_MAX_BYTES = 1024 * 1024;

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
  let accept: readonly UploadContentType[] | undefined;
  try {
    const text = await readNoFollow(join(runDir, 'run.json'), { maxBytes: RUN_JSON_MAX_BYTES });
    const run = JSON.parse(text.toString('utf8')) as {
      run_id?: unknown;
      automation?: { execution_mode?: unknown; targets?: { platform: Platform }[] };
    };
    runId = typeof run.run_id === 'string' ? run.run_id : null;
    const a = run.automation;
    if (a && typeof a.execution_mode === 'string' && Array.isArray(a.targets))
      accept = acceptedUploadTypes({ execution_mode: a.execution_mode, targets: a.targets });
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
    ...(accept ? { accept } : {}),
    say: (line) => process.stdout.write(`${line}\n`),
  });
  if (!result.ok) process.stderr.write(`folder agent: ${result.message}\n`);
  return result.ok ? 0 : 1;
}
