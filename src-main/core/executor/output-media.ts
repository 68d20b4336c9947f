/** What an agent's output.json names as media, checked before a byte is sent: where it is, what it is, how big. */
import { isAbsolute, join } from 'node:path';
import type { UploadContentType } from '../../../src-shared/api';
import { errorText } from '../common/error-text';
import { RunFailure, type RunContext } from './run-context';
import { isWithin, realPath, statPath } from '../files';

export interface MediaItem {
  readonly path: string;
  readonly bytes: number;
  readonly contentType: UploadContentType;
}

const resolveIn = (runDir: string, p: string) => (isAbsolute(p) ? p : join(runDir, p));

/**
 * The folders a run may publish from: its own run directory and the folder the user chose for the automation
 * on this computer, as real paths. An agent's output is steered by instructions and skills from the network,
 * so a path it names (or a link it made) may not reach the rest of the disk.
 */
async function mediaRoots(ctx: RunContext): Promise<{ run: string | null; folder: string | null }> {
  const real = (p: string | undefined) => (p ? realPath(p).catch(() => null) : Promise.resolve(null));
  const [run, folder] = await Promise.all([
    real(ctx.row.run_dir as string),
    real(ctx.deps.folderFor(ctx.automation.id)),
  ]);
  return { run, folder };
}

/** Checks every file before a byte is sent: it exists, is a supported type, and is within its limit. */
export async function inspectAll(ctx: RunContext, paths: readonly string[]): Promise<Map<string, MediaItem>> {
  const out = new Map<string, MediaItem>();
  const roots = await mediaRoots(ctx);
  for (const p of paths) {
    const named = resolveIn(ctx.row.run_dir as string, p);
    let facts;
    let path: string;
    try {
      path = await realPath(named);
    } catch (err) {
      throw new RunFailure(
        'invalid_output',
        `output.json names media ${p} that cannot be read: ${errorText(err)}`,
      );
    }
    const inRun = roots.run !== null && isWithin(roots.run, path);
    if (!inRun && !(roots.folder !== null && isWithin(roots.folder, path)))
      throw new RunFailure(
        'invalid_output',
        `media ${p} is outside the run's folder and the automation's folder: an agent may publish only files from those`,
      );
    // A hard link looks like the run's own file; one the agent made of a file elsewhere has another name too.
    if (inRun && (await statPath(path).catch(() => null))?.nlink !== 1)
      throw new RunFailure(
        'invalid_output',
        `media ${p} is linked from elsewhere: an agent may publish only files it wrote in its run folder`,
      );
    try {
      facts = await ctx.deps.media.inspect(path);
    } catch (err) {
      throw new RunFailure(
        'invalid_output',
        `output.json names media ${p} that cannot be read: ${errorText(err)}`,
      );
    }
    if (facts.bytes === 0)
      throw new RunFailure(
        'invalid_output',
        `media ${p} is empty (0 bytes): the agent did not finish writing it`,
      );
    if (!facts.contentType)
      throw new RunFailure('invalid_output', `media ${p} is not a JPEG, PNG, WebP or MP4 file`);
    out.set(p, { path, bytes: facts.bytes, contentType: facts.contentType });
  }
  return out;
}
