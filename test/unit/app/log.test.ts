import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppLog } from '../../../src-main/app/log';
import { registerSecret } from '../../../src-main/core/api/redact';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pd-app-log-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the desktop app’s log', () => {
  it('writes each entry to logs/postdesk.log in the data folder and to stderr, with secrets scrubbed', () => {
    const key = `pd_live_${'q'.repeat(30)}`;
    registerSecret(key);
    const stderr: string[] = [];
    const log = createAppLog(dataDir, { stderr: (l) => stderr.push(l) });
    log.debug('not at the default level');
    log.warn('the keychain echoed the key', {
      error: `refused ${key}`,
      header: 'Authorization: Bearer abc.def',
    });
    log.close();

    expect(log.file).toBe(join(dataDir, 'logs', 'postdesk.log'));
    const text = readFileSync(log.file, 'utf8');
    expect(text.trimEnd().split('\n')).toEqual(stderr);
    expect(stderr).toHaveLength(1);
    expect(text).toMatch(/ warn the keychain echoed the key \{"error":"refused \[REDACTED\]"/);
    expect(text).not.toContain(key);
    expect(text).not.toContain('abc.def');
    expect(statSync(join(dataDir, 'logs')).mode & 0o777).toBe(0o700);
    expect(statSync(log.file).mode & 0o777).toBe(0o600);
  });

  it('rotates by size, keeping the number of files asked', () => {
    const log = createAppLog(dataDir, { stderr: () => {}, maxBytes: 200, keep: 1 });
    for (let i = 0; i < 20; i++) log.info(`entry ${i}`);
    log.close();
    const entries = (file: string): string[] =>
      readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/^\S+ info /, ''));
    // About 38 bytes a line: five fit in 200. The oldest files are gone.
    expect(entries(log.file)).toEqual(['entry 15', 'entry 16', 'entry 17', 'entry 18', 'entry 19']);
    expect(entries(`${log.file}.1`)).toEqual(['entry 10', 'entry 11', 'entry 12', 'entry 13', 'entry 14']);
    expect(existsSync(`${log.file}.2`)).toBe(false);
  });

  it('says once on stderr when its file cannot be written, and keeps logging there', () => {
    mkdirSync(join(dataDir, 'logs', 'postdesk.log'), { recursive: true });
    const stderr: string[] = [];
    const log = createAppLog(dataDir, { stderr: (l) => stderr.push(l) });
    log.error('first');
    log.error('second');
    expect(stderr.filter((l) => l.includes('cannot be written'))).toHaveLength(1);
    expect(stderr.filter((l) => / error (first|second)$/.test(l))).toHaveLength(2);
  });
});
