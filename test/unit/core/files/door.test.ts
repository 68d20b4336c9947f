import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AppendFile,
  FileRefused,
  createPrivateWriteStream,
  isWithin,
  openNoFollow,
  readNoFollow,
  realPathWithin,
  writePrivateFile,
} from '../../../../src-main/core/files';

/** The door's own promises, on real files: links, hard links, FIFOs, caps and modes. */

let dir: string;
let outside: string;
const savedUmask = process.umask();
beforeEach(async () => {
  process.umask(0o022);
  dir = await mkdtemp(join(tmpdir(), 'pd-door-'));
  outside = join(dir, 'outside.txt');
  await writeFile(outside, 'PRIVATE-44');
});
afterEach(async () => {
  process.umask(savedUmask);
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (p: string) => ((await stat(p)).mode & 0o777).toString(8);

describe('isWithin and realPathWithin', () => {
  it('a name inside, the root itself and a name starting with two dots are inside; a climb or a neighbour is not', () => {
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/a', '/a/b/c')).toBe(true);
    expect(isWithin('/a', '/a/..notes')).toBe(true);
    expect(isWithin('/a', '/a/../b')).toBe(false);
    expect(isWithin('/a', '/ab')).toBe(false);
    expect(isWithin('/a', '/')).toBe(false);
  });

  it('a link inside the root that leads out of it is outside', async () => {
    const root = join(dir, 'root');
    await mkdir(root);
    await writeFile(join(root, 'in.txt'), 'x');
    await symlink(outside, join(root, 'out.txt'));
    await symlink(join(root, 'in.txt'), join(root, 'alias.txt'));
    expect(await realPathWithin(root, join(root, 'out.txt'))).toBeNull();
    expect(await realPathWithin(root, join(root, 'alias.txt'))).toMatch(/in\.txt$/);
    expect(await realPathWithin(root, join(root, 'missing.txt'))).toBeNull();
  });
});

describe('no-follow opens', () => {
  it('refuses a link at the name, a hard link, a folder linked between the root and the file', async () => {
    await symlink(outside, join(dir, 'link.txt'));
    await link(outside, join(dir, 'hard.txt'));
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'via'));
    await writeFile(join(dir, 'real', 'f.txt'), 'x');
    const refusal = (p: string, o = {}) =>
      readNoFollow(p, { maxBytes: 100, ...o }).then(
        () => 'read',
        (e: unknown) => (e instanceof FileRefused ? e.reason : String(e)),
      );
    expect(await refusal(join(dir, 'link.txt'))).toBe('link');
    expect(await refusal(join(dir, 'hard.txt'))).toBe('hard-link');
    expect(await refusal(join(dir, 'via', 'f.txt'), { root: dir })).toBe('link');
    expect(await refusal(join(dir, 'real', 'f.txt'), { root: dir })).toBe('read');
  });

  it('a FIFO planted as a file is refused at once, not waited on', async () => {
    const fifo = join(dir, 'output.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    await expect(readNoFollow(fifo, { maxBytes: 100 })).rejects.toMatchObject({ reason: 'not-a-file' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a file over its cap is refused by its size; the message quotes none of it', async () => {
    const big = join(dir, 'output.json');
    await writeFile(big, `PRIVATE-45${'x'.repeat(200)}`);
    const err = await readNoFollow(big, { maxBytes: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileRefused);
    expect((err as FileRefused).message).toBe('output.json is over its limit of 100 bytes');
  });
});

describe('private writes', () => {
  it('a whole file replaces a link at its name, 0600, the link target untouched', async () => {
    const at = join(dir, 'task.md');
    await symlink(outside, at);
    await writePrivateFile(at, 'the instructions');
    expect(await readFile(outside, 'utf8')).toBe('PRIVATE-44');
    expect(await readFile(at, 'utf8')).toBe('the instructions');
    expect(await modeOf(at)).toBe('600');
  });

  it('a write stream refuses a hard link before a byte of the other name is lost', async () => {
    const at = join(dir, 'export.csv');
    await link(outside, at);
    expect(() => createPrivateWriteStream(at)).toThrow(FileRefused);
    expect(await readFile(outside, 'utf8')).toBe('PRIVATE-44');
  });

  it('an append file keeps its descriptor: a link later planted at the name takes none of its lines', async () => {
    const at = join(dir, 'run.log');
    const log = AppendFile.openSync(at);
    log.write('first\n');
    await rename(at, join(dir, 'moved.log'));
    await symlink(outside, at);
    log.write('second\nrm -rf ~\n');
    log.close();
    expect(await readFile(outside, 'utf8')).toBe('PRIVATE-44');
    expect(await readFile(join(dir, 'moved.log'), 'utf8')).toBe('first\nsecond\nrm -rf ~\n');
    expect(await modeOf(join(dir, 'moved.log'))).toBe('600');
  });

  it('opening for append tightens a loose file and refuses a link', async () => {
    const at = join(dir, 'loose.log');
    await writeFile(at, '', { mode: 0o644 });
    await (await openNoFollow(at, 'append')).close();
    expect(await modeOf(at)).toBe('600');
    await symlink(outside, join(dir, 'l.log'));
    await expect(openNoFollow(join(dir, 'l.log'), 'append')).rejects.toMatchObject({ reason: 'link' });
  });
});
