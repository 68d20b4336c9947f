import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { createPrivateWriteStream, removePath, renamePath, type WriteStream } from '../files';

/**
 * Writes an export to `file` as a private file (0600): into a new file beside it first, renamed over `file` only
 * when the export is complete, so a failed or stopped export never leaves half a file under the chosen name nor
 * spoils an older one. Answers what `write` answered.
 */
export async function writeExportFile<T>(file: string, write: (out: WriteStream) => Promise<T>): Promise<T> {
  const partial = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.partial`);
  const out = createPrivateWriteStream(partial, { exclusive: true });
  try {
    const result = await write(out);
    await renamePath(partial, file);
    return result;
  } catch (e) {
    out.destroy();
    await removePath(partial);
    // The temporary name is ours, not the user's: a failure names the file they asked for.
    if (e instanceof Error) e.message = e.message.replaceAll(partial, file);
    throw e;
  }
}
