/**
 * Paths a person named (a file picked in a dialog or on the command line, a folder in the settings) or that
 * Postdesk made in a folder no one else writes: here a link is the person's own choice and is followed. A file in
 * a folder someone else writes goes through no-follow.ts instead.
 */
import {
  accessSync,
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  type Dirent,
  type ReadStream,
  type Stats,
} from 'node:fs';
import {
  lstat,
  mkdtemp,
  open,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type { Dirent, FileHandle, ReadStream, Stats };

export function pathExistsSync(path: string): boolean {
  return existsSync(path);
}

/** The facts of what `path` names, following links. */
export function statPath(path: string): Promise<Stats> {
  return stat(path);
}

/** The facts of `path`, or undefined when nothing is there. */
export function statPathSync(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

/** The facts of the name itself (a link is a link). */
export function lstatPath(path: string): Promise<Stats> {
  return lstat(path);
}

export function realPath(path: string): Promise<string> {
  return realpath(path);
}

export function realPathSync(path: string): string {
  return realpathSync(path);
}

export function readDir(dir: string): Promise<string[]> {
  return readdir(dir);
}

export function readDirEntries(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true });
}

export function readDirSync(dir: string): string[] {
  return readdirSync(dir);
}

export function readTextFile(path: string): Promise<string> {
  return readFile(path, 'utf8');
}

export function readTextFileSync(path: string): string {
  return readFileSync(path, 'utf8');
}

export function readBytes(path: string): Promise<Buffer> {
  return readFile(path);
}

/** A descriptor to read a file from, for reading it in parts (hashing, sniffing its type). */
export function openForReading(path: string): Promise<FileHandle> {
  return open(path, 'r');
}

/**
 * Up to `length` bytes from the start of a file (fewer when it is shorter): what a sniff of its type reads
 * (`detectBytes` in src-shared/media-input.ts), for core's media checks and the sandbox's probe alike.
 */
export async function readFileHead(path: string, length: number): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** A stream of a file's bytes (`end` inclusive), for sending or hashing it without holding it whole. */
export function createFileReadStream(
  path: string,
  o: { readonly start?: number; readonly end?: number; readonly highWaterMark?: number } = {},
): ReadStream {
  return createReadStream(path, o);
}

export function removePath(path: string, o: { readonly recursive?: boolean } = {}): Promise<void> {
  return rm(path, { recursive: o.recursive ?? false, force: true });
}

export function removePathSync(path: string, o: { readonly recursive?: boolean } = {}): void {
  rmSync(path, { recursive: o.recursive ?? false, force: true });
}

/** Removes an empty folder; a folder with anything left in it stays. */
export async function removeEmptyDir(dir: string): Promise<void> {
  await rmdir(dir).catch(() => undefined);
}

export function renamePath(from: string, to: string): Promise<void> {
  return rename(from, to);
}

export function renamePathSync(from: string, to: string): void {
  renameSync(from, to);
}

/** A new folder of the system's temporary folder, 0700 like every mkdtemp's. */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function makeTempDirSync(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** This user has `mode` access to `path`, and it is a plain file or a folder as asked; false when it is missing. */
function accessibleSync(path: string, mode: number, kind: 'file' | 'dir'): boolean {
  try {
    accessSync(path, mode);
    const st = statSync(path);
    return kind === 'file' ? st.isFile() : st.isDirectory();
  } catch {
    return false;
  }
}

/** A plain file this user may run. */
export const isExecutableFileSync = (path: string): boolean => accessibleSync(path, constants.X_OK, 'file');

/** A folder this user may write into. */
export const isWritableDirSync = (dir: string): boolean => accessibleSync(dir, constants.W_OK, 'dir');

/**
 * Reads a file a person named, after `check` has seen the facts of the very file opened (taken on its
 * descriptor, so the file read is the file checked): a key file's mode, say.
 */
export function readCheckedTextFileSync(path: string, check: (st: Stats) => void): string {
  const fd = openSync(path, 'r');
  try {
    check(fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Why a path a person named cannot be read, in words (no errno): null when it can. */
export function unreadableFileSync(path: string): string | null {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR'
      ? 'no such file (a part of the path is a file, not a folder)'
      : 'cannot be read';
  }
  if (!st) return 'no such file';
  if (st.isDirectory()) return 'is a folder, not a file';
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return 'you are not allowed to read it';
  }
  return null;
}
