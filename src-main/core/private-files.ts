/**
 * The one way Postdesk makes its directories and files: readable by this user only (0700 and 0600),
 * whatever the umask, and tightened when an older version left them looser. Everything under the data
 * directory holds something private (posts, run logs, agents' task files, settings), so nothing there is
 * left to the umask.
 */
import {
  chmodSync,
  closeSync,
  createWriteStream,
  lstatSync,
  mkdirSync,
  openSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { appendFile, chmod, mkdir, open, writeFile } from 'node:fs/promises';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** A sticky directory (such as /tmp) is shared by design: it is used, never chmodded. */
const STICKY = 0o1000;

function isOwnDir(dir: string): boolean {
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  return st.isDirectory() && (st.mode & STICKY) === 0 && (uid === undefined || st.uid === uid);
}

/** Creates a directory (and its missing parents) 0700; an existing one of this user's is set to 0700. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (isOwnDir(dir)) chmodSync(dir, PRIVATE_DIR_MODE);
}

export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (isOwnDir(dir)) await chmod(dir, PRIVATE_DIR_MODE);
}

/** Sets an existing file to 0600; a missing one is left missing. */
export function tightenFileSync(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Creates an empty file 0600 unless it exists, and sets an existing one to 0600. */
export function ensurePrivateFileSync(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes a whole file 0600 (an existing file keeps no looser mode). */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  // Made private first, so the content never sits in a looser file.
  const handle = await open(file, 'a', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
  } finally {
    await handle.close();
  }
  await writeFile(file, data);
}

export function writePrivateFileSync(file: string, data: string | Uint8Array): void {
  // Made private first, so the content never sits in a looser file.
  ensurePrivateFileSync(file);
  writeFileSync(file, data);
}

/** Appends to a file, creating it 0600. */
export async function appendPrivateFile(file: string, data: string): Promise<void> {
  await appendFile(file, data, { mode: PRIVATE_FILE_MODE });
}

/** An appending stream to a file created 0600. */
export function createPrivateAppendStream(file: string): WriteStream {
  return createWriteStream(file, { flags: 'a', mode: PRIVATE_FILE_MODE });
}
