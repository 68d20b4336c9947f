import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRotatingFile } from '../../../src-main/core/log-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-log-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const read = (file: string): string => readFileSync(file, 'utf8');
const mode = (path: string): number => statSync(path).mode & 0o777;

describe('openRotatingFile', () => {
  it('creates its folders 0700 and the file 0600 only at the first line, one line per write', () => {
    const file = join(dir, 'data', 'logs', 'postdesk.log');
    const log = openRotatingFile({ file });
    expect(existsSync(join(dir, 'data'))).toBe(false);
    log.write('first');
    log.write('second\n');
    log.close();
    expect(read(file)).toBe('first\nsecond\n');
    expect(mode(join(dir, 'data'))).toBe(0o700);
    expect(mode(join(dir, 'data', 'logs'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it('appends to the file a previous run left, and tightens it if it was readable by others', () => {
    const file = join(dir, 'postdesk.log');
    writeFileSync(file, 'from before\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const log = openRotatingFile({ file });
    log.write('now');
    log.close();
    expect(read(file)).toBe('from before\nnow\n');
    expect(mode(file)).toBe(0o600);
  });

  it('rotates past maxBytes, keeps `keep` older files, drops the oldest, and never splits a line', () => {
    const file = join(dir, 'postdesk.log');
    const log = openRotatingFile({ file, maxBytes: 20, keep: 2 });
    // Each line is 10 bytes with its newline: two fit in a file.
    for (let i = 1; i <= 7; i++) log.write(`line ${i}...`.slice(0, 9));
    log.close();
    expect(read(file)).toBe('line 7...\n');
    expect(read(`${file}.1`)).toBe('line 5...\nline 6...\n');
    expect(read(`${file}.2`)).toBe('line 3...\nline 4...\n');
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const f of [file, `${file}.1`, `${file}.2`]) expect(mode(f)).toBe(0o600);
  });

  it('goes on in the same file after a reopen, counting what it already holds', () => {
    const file = join(dir, 'postdesk.log');
    const first = openRotatingFile({ file, maxBytes: 25, keep: 1 });
    first.write('aaaaaaaaaaaaaaa'); // 16 bytes
    first.close();
    const second = openRotatingFile({ file, maxBytes: 25, keep: 1 });
    second.write('bbbbbbbbbbbbbbb'); // 16 more would pass 25: rotated first
    second.close();
    expect(read(`${file}.1`)).toBe('aaaaaaaaaaaaaaa\n');
    expect(read(file)).toBe('bbbbbbbbbbbbbbb\n');
  });

  it('with keep 0 starts over in one file', () => {
    const file = join(dir, 'postdesk.log');
    const log = openRotatingFile({ file, maxBytes: 10, keep: 0 });
    log.write('12345678');
    log.write('abcdefgh');
    log.close();
    expect(read(file)).toBe('abcdefgh\n');
    expect(existsSync(`${file}.1`)).toBe(false);
  });

  it('never throws when the file cannot be written: tells onError once, and writes again once it can', () => {
    const file = join(dir, 'logs', 'postdesk.log');
    const errors: unknown[] = [];
    const log = openRotatingFile({ file, onError: (e) => errors.push(e) });
    // A folder where the file should be: no open succeeds, whoever runs the test.
    mkdirSync(file, { recursive: true });
    expect(() => {
      log.write('lost 1');
      log.write('lost 2');
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('EISDIR');
    rmSync(file, { recursive: true });
    log.write('back');
    log.close();
    expect(read(file)).toBe('back\n');
  });
});
