/**
 * Files Postdesk writes are private: its directories 0700, its files 0600, whatever the umask, and loose
 * ones left by an older version are tightened when Postdesk starts. Real files, real stat modes: the
 * SQLite store with its WAL and SHM, the settings the CLI writes, the sandbox registry, an executor run's
 * directory, and the files a page of `postdesk web` drops.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocal } from '../../src-main/core/services';
import { MemorySecretStore } from '../../src-main/host/memory-secret-store';
import { connectSandbox } from '../../src-main/core/sandbox-link';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { storeFile } from '../../src-main/core/paths';
import { FILE_NAME_HEADER, FILES_PATH } from '../../src-shared/ipc/ws-protocol';
import { agentCommand, startHarness } from '../integration/executor-harness';
import { startTestWebHost } from '../helpers/web-host';

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
const HOUR = 3_600_000;
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(3, '0');

let root: string;
const savedUmask = process.umask();
beforeAll(() => {
  // The usual umask: without Postdesk's own modes, directories come out 0755 and files 0644.
  process.umask(0o022);
  root = mkdtempSync(join(tmpdir(), 'pd-modes-'));
});
afterAll(() => {
  process.umask(savedUmask);
  rmSync(root, { recursive: true, force: true });
});

function postdesk(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: root, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => done({ code, output }));
  });
}

describe('private files', () => {
  it('a fresh data directory is 0700; the store, its WAL and its SHM are 0600', () => {
    const dir = join(root, 'fresh', 'data');
    const local = openLocal(dir, new MemorySecretStore());
    try {
      local.settings.update({ concurrency: 3 });
      const db = storeFile(dir);
      // While the store is open, SQLite keeps its write-ahead log and shared memory beside it.
      expect(existsSync(`${db}-wal`)).toBe(true);
      expect(existsSync(`${db}-shm`)).toBe(true);
      expect(modeOf(dir)).toBe('700');
      expect(modeOf(join(root, 'fresh'))).toBe('700');
      expect([modeOf(db), modeOf(`${db}-wal`), modeOf(`${db}-shm`)]).toEqual(['600', '600', '600']);
    } finally {
      local.store.close();
    }
  });

  it('a data directory and store left loose by an older version are tightened on start', () => {
    const dir = join(root, 'loose');
    mkdirSync(join(dir, 'executor', 'runs', 'old-run'), { recursive: true, mode: 0o755 });
    const db = storeFile(dir);
    openLocal(dir, new MemorySecretStore()).store.close();
    for (const f of [db, `${db}-wal`, `${db}-shm`]) writeFileSync(f, '', { flag: 'a' });
    for (const f of [db, `${db}-wal`, `${db}-shm`]) chmodSync(f, 0o644);
    writeFileSync(join(dir, 'sandbox.json'), '{}', { mode: 0o644 });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'executor'), 0o755);
    chmodSync(join(dir, 'executor', 'runs'), 0o755);

    const local = openLocal(dir, new MemorySecretStore());
    try {
      expect(modeOf(dir)).toBe('700');
      expect([modeOf(db), modeOf(`${db}-wal`), modeOf(`${db}-shm`)]).toEqual(['600', '600', '600']);
      expect(modeOf(join(dir, 'sandbox.json'))).toBe('600');
      expect(modeOf(join(dir, 'executor'))).toBe('700');
      expect(modeOf(join(dir, 'executor', 'runs'))).toBe('700');
    } finally {
      local.store.close();
    }
  });

  it('the settings `postdesk config set` writes live in a private directory and file', async () => {
    const dir = join(root, 'cli', 'postdesk');
    const run = await postdesk(['config', 'set', 'concurrency', '2'], { POSTDESK_DATA_DIR: dir });
    expect(run.code, run.output).toBe(0);
    expect(modeOf(dir)).toBe('700');
    for (const name of readdirSync(dir)) expect([name, modeOf(join(dir, name))]).toEqual([name, '600']);
  });

  it('the sandbox registry (it holds the sandbox key) is 0600, even over a loose older one', async () => {
    const dir = join(root, 'registry');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, 'sandbox.json'), 'stale', { mode: 0o644 });
    const link = await connectSandbox(dir, startSandboxInProcess);
    try {
      expect(modeOf(join(dir, 'sandbox.json'))).toBe('600');
    } finally {
      await link.close();
    }
  });

  it("an executor run's directory is 0700 and its task.md, run.json and run.log are 0600", async () => {
    const h = await startHarness();
    try {
      const { executor, dataDir } = h.another({ agent: agentCommand('--mode', 'ok') });
      await executor.runOnce();
      await h.advance(HOUR);
      await executor.runOnce();
      const row = executor.journal.list()[0];
      const runDir = row?.run_dir;
      if (!runDir) throw new Error('no run was started');
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(join(dataDir, 'runs'))).toBe('700');
      expect(modeOf(runDir)).toBe('700');
      for (const f of ['task.md', 'run.json', 'run.log']) {
        expect([f, modeOf(join(runDir, f))]).toEqual([f, '600']);
      }
    } finally {
      await h.close();
    }
  });

  it('a file dropped on a `postdesk web` page is kept 0600 in a 0700 folder', async () => {
    const web = await startTestWebHost('pd-modes-web-');
    try {
      const res = await fetch(`${web.web.host.origin}${FILES_PATH}`, {
        method: 'POST',
        headers: {
          'x-postdesk-token': web.token,
          [FILE_NAME_HEADER]: 'note.png',
          'content-type': 'application/octet-stream',
        },
        body: Buffer.from('not really a png'),
      });
      expect(res.status).toBe(200);
      const staging = web.web.stagingDir;
      expect(modeOf(staging)).toBe('700');
      const entries = readdirSync(staging, { recursive: true, withFileTypes: true });
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        const path = join(e.parentPath, e.name);
        expect([e.name, modeOf(path)]).toEqual([e.name, e.isDirectory() ? '700' : '600']);
      }
      expect(modeOf(join(web.dir, 'data'))).toBe('700');
    } finally {
      await web.close();
    }
  });
});
