import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files';

/**
 * Writes an export to `file` as a private file (0600): into a new file beside it first, renamed over `file` only
 * when the export is complete, so a failed or stopped export never leaves half a file under the chosen name nor
 * spoils an older one. Answers what `write` answered.
 */
export async function writeExportFile<T>(file: string, write: (out: WriteStream) => Promise<T>): Promise<T> {
  const partial = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.partial`);
  const out = createWriteStream(partial, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  try {
    const result = await write(out);
    // The umask may have narrowed the mode, never widened it; chmod says it outright.
    await chmod(partial, PRIVATE_FILE_MODE);
    await rename(partial, file);
    return result;
  } catch (e) {
    out.destroy();
    await rm(partial, { force: true });
    // The temporary name is ours, not the user's: a failure names the file they asked for.
    if (e instanceof Error) e.message = e.message.replaceAll(partial, file);
    throw e;
  }
}
