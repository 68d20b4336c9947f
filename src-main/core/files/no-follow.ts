/**
 * Opening a file in a folder someone else may write (an agent's run folder, the user's media folder) without
 * being steered by a link planted there: the final name is opened with O_NOFOLLOW and everything after works on
 * that descriptor; with a root named, every folder between the root and the file must be a real folder (no
 * symlinked parent) and the file's real folder must be inside the root; a file with another name elsewhere
 * (a hard link) is refused, since its other name may be a file the planter could not write.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { lstat, open, realpath, rename, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, sep } from 'node:path';
import { isWithin } from './within';

/** 0 where the platform has no such flag (Windows): there the checks on the descriptor still run. */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO planted as a file would hang a read: opening without blocking, then checking it is a file. */
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Why a file was not opened, for a person: the file's name (never its content) and what it is. */
export class FileRefused extends Error {
  constructor(
    readonly reason: 'link' | 'hard-link' | 'not-a-file' | 'outside' | 'too-big',
    message: string,
  ) {
    super(message);
  }
}

export interface NoFollowOptions {
  /** The folder the file must be in; folders between it and the file may not be links. */
  readonly root?: string;
  /** A file with other names is accepted (only where no one else writes the folder). */
  readonly allowHardLinks?: boolean;
  /** The mode a written file ends with (default 0600; an installed command is executable). */
  readonly mode?: number;
}

const isLoop = (err: unknown): boolean =>
  ['ELOOP', 'EMLINK', 'EFTYPE'].includes((err as NodeJS.ErrnoException).code ?? '');

function linkRefused(file: string): FileRefused {
  return new FileRefused('link', `${basename(file)} is a link, which Postdesk does not follow there`);
}

/** The folders from `root` (excluded) down to `file`'s folder, each as a full path. */
function parentsBelow(root: string, file: string): string[] {
  const rel = relative(root, dirname(file));
  if (rel === '') return [];
  if (!isWithin(root, dirname(file)))
    throw new FileRefused('outside', `${basename(file)} is not inside the folder it must be in`);
  const out: string[] = [];
  let at = root;
  for (const part of rel.split(sep)) out.push((at = join(at, part)));
  return out;
}

function checkParentsSync(root: string | undefined, file: string): void {
  if (root === undefined) return;
  for (const dir of parentsBelow(root, file)) if (!lstatSync(dir).isDirectory()) throw linkRefused(dir);
  if (!isWithin(realpathSync(root), realpathSync(dirname(file))))
    throw new FileRefused('outside', `${basename(file)} is not inside the folder it must be in`);
}

async function checkParents(root: string | undefined, file: string): Promise<void> {
  if (root === undefined) return;
  for (const dir of parentsBelow(root, file)) if (!(await lstat(dir)).isDirectory()) throw linkRefused(dir);
  const [realRoot, realDir] = await Promise.all([realpath(root), realpath(dirname(file))]);
  if (!isWithin(realRoot, realDir))
    throw new FileRefused('outside', `${basename(file)} is not inside the folder it must be in`);
}

function checkOpened(st: Stats, file: string, o: NoFollowOptions): void {
  if (!st.isFile()) throw new FileRefused('not-a-file', `${basename(file)} is not a plain file`);
  if (st.nlink > 1 && !o.allowHardLinks)
    throw new FileRefused(
      'hard-link',
      `${basename(file)} has another name elsewhere (a hard link), which Postdesk does not use there`,
    );
}

/**
 * `write` never truncates at open: a hard link is refused before a byte of it is lost, then the descriptor is
 * emptied.
 */
type Access = 'read' | 'append' | 'create' | 'write';
const FLAGS: Record<Access, number> = {
  read: constants.O_RDONLY | O_NONBLOCK,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NONBLOCK,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  write: constants.O_WRONLY | constants.O_CREAT | O_NONBLOCK,
};

/** `dir` and every folder between `root` and it are real folders (no link), and `dir` is inside `root`. */
export function assertRealDirs(root: string, dir: string): Promise<void> {
  return checkParents(root, join(dir, 'entry'));
}

/** Opens `file` without following a link at its name; the descriptor is checked to be a plain file. */
export async function openNoFollow(
  file: string,
  access: Access,
  o: NoFollowOptions = {},
): Promise<FileHandle> {
  await checkParents(o.root, file);
  let handle: FileHandle;
  try {
    handle = await open(file, FLAGS[access] | O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (err) {
    throw isLoop(err) ? linkRefused(file) : err;
  }
  try {
    checkOpened(await handle.stat(), file, o);
    if (access !== 'read') await handle.chmod(PRIVATE_FILE_MODE);
    if (access === 'write') await handle.truncate(0);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export function openNoFollowSync(file: string, access: Access, o: NoFollowOptions = {}): number {
  checkParentsSync(o.root, file);
  let fd: number;
  try {
    fd = openSync(file, FLAGS[access] | O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (err) {
    throw isLoop(err) ? linkRefused(file) : err;
  }
  try {
    checkOpened(fstatSync(fd), file, o);
    if (access !== 'read') fchmodPrivate(fd);
    if (access === 'write') ftruncateSync(fd, 0);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * Reads a whole file opened without following links, at most `maxBytes` (a bigger one is refused by its size,
 * none of it quoted).
 */
export async function readNoFollow(
  file: string,
  o: NoFollowOptions & { readonly maxBytes: number },
): Promise<Buffer> {
  const handle = await openNoFollow(file, 'read', o);
  try {
    const { size } = await handle.stat();
    if (size > o.maxBytes)
      throw new FileRefused('too-big', `${basename(file)} is over its limit of ${o.maxBytes} bytes`);
    const buf = Buffer.alloc(Math.min(size, o.maxBytes) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > o.maxBytes)
        throw new FileRefused('too-big', `${basename(file)} is over its limit of ${o.maxBytes} bytes`);
      if (got === buf.length) break;
    }
    return buf.subarray(0, got);
  } finally {
    await handle.close();
  }
}

const tempName = (file: string) =>
  join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/**
 * Writes a whole file 0600 as a new file renamed over the old name: a link planted at the name is replaced,
 * never written through, and a reader never sees half a file.
 */
export async function writeReplacing(
  file: string,
  data: string | Uint8Array,
  o: NoFollowOptions = {},
): Promise<void> {
  const tmp = tempName(file);
  const handle = await openNoFollow(tmp, 'create', o);
  try {
    await handle.writeFile(data);
    if (o.mode !== undefined) await handle.chmod(o.mode);
  } catch (err) {
    await handle.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export function writeReplacingSync(file: string, data: string | Uint8Array, o: NoFollowOptions = {}): void {
  const tmp = tempName(file);
  const fd = openNoFollowSync(tmp, 'create', o);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    if (o.mode !== undefined && process.platform !== 'win32') fchmodSync(fd, o.mode);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * A file held open for appending from before anyone else could touch its name: lines go to that descriptor,
 * so a link later planted at the name takes none of them. Synchronous writes keep lines whole and in order.
 */
export class AppendFile {
  private fd: number | null;
  private bytes: number;

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
    this.bytes = fstatSync(fd).size;
  }

  static openSync(file: string, o: NoFollowOptions = {}): AppendFile {
    // Opening for append tightens a file left looser by an older version before a line goes in.
    return new AppendFile(file, openNoFollowSync(file, 'append', o));
  }

  /** Bytes in the file, as this descriptor wrote them. */
  get size(): number {
    return this.bytes;
  }

  get closed(): boolean {
    return this.fd === null;
  }

  write(text: string): void {
    if (this.fd === null) throw new Error(`${basename(this.file)} is closed`);
    const buf = Buffer.from(text);
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
    this.bytes += buf.length;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function fchmodPrivate(fd: number): void {
  if (process.platform !== 'win32') fchmodSync(fd, PRIVATE_FILE_MODE);
}
