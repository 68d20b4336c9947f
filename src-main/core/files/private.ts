/**
 * The one way Postdesk makes its folders and files: readable by this user only (0700 and 0600), whatever the
 * umask, tightened when an older version left them looser, and never written through a link planted at the
 * name. Everything under the data directory holds something private (posts, run logs, agents' task files,
 * settings), so nothing there is left to the umask.
 */
import {
  chmodSync,
  closeSync,
  createWriteStream,
  fchmodSync,
  lstatSync,
  mkdirSync,
  type WriteStream,
} from 'node:fs';
import * as fs from 'node:fs';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  FileRefused,
  assertRealDirs,
  openNoFollowSync,
  writeReplacing,
  writeReplacingSync,
  type NoFollowOptions,
} from './no-follow';

export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE };
export type { WriteStream };

/** A sticky directory (such as /tmp) is shared by design: it is used, never chmodded. */
const STICKY = 0o1000;

const uid = process.getuid?.();
const isOwnDir = (st: { isDirectory(): boolean; mode: number; uid: number }): boolean =>
  st.isDirectory() && (st.mode & STICKY) === 0 && (uid === undefined || st.uid === uid);

/** Creates a directory (and its missing parents) 0700; an existing one of this user's is set to 0700. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (isOwnDir(lstatSync(dir))) chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * With a `root` (a folder someone else may write, such as a run folder), the folder and each one between it and
 * the root must be a real folder, not a link planted there: a link is refused, its target left untouched.
 */
export async function ensurePrivateDir(dir: string, o: { readonly root?: string } = {}): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (o.root !== undefined) await assertRealDirs(o.root, dir);
  if (isOwnDir(await lstat(dir))) await chmod(dir, PRIVATE_DIR_MODE);
}

/** Sets an existing file to 0600 through its descriptor (a link at the name is left alone); a missing one stays missing. */
export function tightenFileSync(file: string): void {
  let fd: number;
  try {
    fd = openNoFollowSync(file, 'read', { allowHardLinks: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e instanceof FileRefused) return;
    throw e;
  }
  try {
    if (process.platform !== 'win32') fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Creates an empty file 0600 unless it exists, and sets an existing one to 0600. */
export function ensurePrivateFileSync(file: string, o: NoFollowOptions = {}): void {
  closeSync(openNoFollowSync(file, 'append', o));
}

/** Writes a whole file 0600, replacing what was at the name (a link there included) in one rename. */
export function writePrivateFile(
  file: string,
  data: string | Uint8Array,
  o: NoFollowOptions = {},
): Promise<void> {
  return writeReplacing(file, data, o);
}

export function writePrivateFileSync(file: string, data: string | Uint8Array, o: NoFollowOptions = {}): void {
  writeReplacingSync(file, data, o);
}

/**
 * A stream that writes a file 0600 from its start, opened without following a link (a hard link refused);
 * `exclusive`: the file must be new.
 */
export function createPrivateWriteStream(
  file: string,
  o: NoFollowOptions & { readonly exclusive?: boolean } = {},
): WriteStream {
  return createWriteStream(file, { fd: openNoFollowSync(file, o.exclusive ? 'create' : 'write', o) });
}

/**
 * The file system proper-lockfile works with: Node's, but a lock folder is made 0700, as it sits next to the
 * user's media and is Postdesk's own.
 */
export const lockFileSystem = {
  ...fs,
  mkdir: (path: string, cb: (err: NodeJS.ErrnoException | null) => void) =>
    fs.mkdir(path, { mode: PRIVATE_DIR_MODE }, cb),
};

/**
 * Creates a folder of the user's own (`~/.config/systemd/user`, `~/.local/bin`) with its missing parents, each new
 * one 0700; one that exists keeps the mode its owner gave it.
 */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function ensureDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
