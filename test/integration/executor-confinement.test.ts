/**
 * Agents confined with the real bubblewrap: a hostile agent, run by the real executor against the sandbox,
 * tries to reach what it must not (Postdesk's database, the keyrings, the parent's /proc environ, a home file
 * outside its folder, writes outside its run directory, the session bus) and every attempt fails, while
 * its run still completes. The same agent unconfined reaches them all, so the test can fail. Skipped only
 * where bubblewrap is missing or cannot make a sandbox, with the reason printed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectConfiner } from '../../src-main/core/executor/confine/detect';
import type { ConfinementPolicy } from '../../src-main/core/executor/confine/view';
import { needsTool } from '../helpers/system-tools';
import { startHarness, type Harness } from './executor-harness';

const HOUR = 3_600_000;
const HOSTILE = resolve(import.meta.dirname, '../agents/hostile-agent.mjs');
const REPO = resolve(import.meta.dirname, '../..');

const confiner = process.platform === 'linux' ? await detectConfiner() : null;
const bwrap = process.platform === 'linux' ? needsTool('bwrap', 'agents are confined with bubblewrap') : {};
// Installed but unable to make a sandbox (no unprivileged user namespaces): skipped, with the reason printed.
const skip = !bwrap.skip && confiner?.kind !== 'bubblewrap';
if (skip)
  console.warn(
    `executor-confinement: skipped: ${confiner?.kind === 'none' ? confiner.reason : 'bubblewrap runs on Linux only'}`,
  );

interface Attempt {
  kind: string;
  target: string;
  ok: boolean;
  error?: string;
  detail?: string;
}

let h: Harness | undefined;
let scratch = '';
let bus: Server | undefined;
const savedEnv = { ...process.env };

/** A machine of files outside the OS temp directory (which bubblewrap empties anyway): home, runtime dir, data. */
async function machine() {
  // Under the repository, so that only the rules under test hide these, not the emptied /tmp.
  mkdirSync(join(REPO, '.tmp'), { recursive: true });
  scratch = await mkdtemp(join(REPO, '.tmp', 'confine-'));
  const home = join(scratch, 'home');
  const keyring = join(home, '.local', 'share', 'keyrings', 'login.keyring');
  const privateFile = join(home, 'Documents', 'private.txt');
  const folder = join(home, 'clips');
  const runtime = join(scratch, 'run-user');
  for (const f of [keyring, privateFile, join(folder, 'a.png')]) {
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f, 'secret');
  }
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const socket = join(runtime, 'bus');
  bus = createServer((c) => c.destroy());
  await new Promise<void>((ok) => bus?.listen(socket, ok));
  process.env.HOME = home;
  process.env.XDG_RUNTIME_DIR = runtime;
  process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${socket}`;
  h = await startHarness({ root: scratch });
  return { home, keyring, privateFile, folder, runtime, socket };
}

async function hostileRun(mode: ConfinementPolicy['mode'], extra: Partial<ConfinementPolicy> = {}) {
  const m = await machine();
  const harness = h as Harness;
  const dataRoot = harness.dir;
  const plan = {
    read: [join(dataRoot, 'b1', 'postdesk.db'), m.keyring, `/proc/${process.pid}/environ`, m.privateFile],
    list: [join(m.home, '.local', 'share', 'keyrings'), m.runtime],
    write: [
      join(m.home, 'planted.txt'),
      join(dataRoot, 'planted.txt'),
      join(m.folder, 'planted.txt'),
      join(scratch, 'planted.txt'),
    ],
    connect: [m.socket],
    folderFile: [join(m.folder, 'a.png')],
  };
  const policy: ConfinementPolicy = {
    mode,
    network: true,
    readPaths: [],
    hide: [dataRoot],
    folderWritable: false,
    ...extra,
  };
  const ex = harness.another({
    agent: { command: process.execPath, args: [HOSTILE], env: { HOSTILE_PLAN: JSON.stringify(plan) } },
    folder: m.folder,
    confinement: () => policy,
  }).executor;
  await ex.runOnce();
  await harness.advance(HOUR);
  await ex.runOnce();
  const row = ex.journal.list()[0];
  if (!row?.run_dir) throw new Error('no run');
  const [run] = await harness.runs(ex);
  const attempts = JSON.parse(readFileSync(join(row.run_dir, 'attempts.json'), 'utf8')) as Attempt[];
  const log = readFileSync(join(row.run_dir, 'run.log'), 'utf8');
  return { m, plan, row, run, attempts, log, dataRoot };
}

beforeEach(() => {
  process.env = { ...savedEnv };
});
afterEach(async () => {
  process.env = { ...savedEnv };
  await h?.close();
  h = undefined;
  await new Promise((ok) => (bus ? bus.close(ok) : ok(undefined)));
  bus = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = '';
});

describe.skipIf(skip)('agents confined with bubblewrap', bwrap, () => {
  it('a hostile agent reaches none of the data, keyrings, parent environ, home files or bus; its run completes', async () => {
    const { attempts, run, log, plan, m, dataRoot, row } = await hostileRun('required');
    expect(run?.state, JSON.stringify(attempts)).toBe('completed');
    const by = (kind: string, target: string) => attempts.find((a) => a.kind === kind && a.target === target);
    for (const file of plan.read) expect(by('read', file), file).toMatchObject({ ok: false });
    // A hidden directory is absent, or present and empty (a fresh tmpfs over it).
    for (const dir of plan.list) {
      const a = by('list', dir);
      expect(a?.ok === false || a?.detail === '', `${dir}: ${JSON.stringify(a)}`).toBe(true);
    }
    expect(by('connect', m.socket)).toMatchObject({ ok: false });
    expect(by('env', 'DBUS_SESSION_BUS_ADDRESS')?.ok).toBe(false);
    // Writes: refused (the folder is read-only) or kept inside the sandbox's own empty directories.
    expect(by('write', join(m.folder, 'planted.txt'))).toMatchObject({ ok: false, error: 'EROFS' });
    // Outside the shared roots the system is read-only; under one (a checkout in /tmp, say) the write lands in the
    // sandbox's own empty tmpfs. Either way the file below must not reach the host.
    const scratchWrite = by('write', join(scratch, 'planted.txt'));
    expect(scratchWrite?.ok === false ? scratchWrite.error : 'kept in the sandbox').toMatch(
      /^(EROFS|kept in the sandbox)$/,
    );
    for (const file of plan.write) expect(existsSync(file), file).toBe(false);
    expect(existsSync(join(dataRoot, 'planted.txt'))).toBe(false);
    // What it may do: read its folder, and live in its run directory.
    expect(by('folder-read', join(m.folder, 'a.png'))).toMatchObject({ ok: true });
    expect(attempts.find((a) => a.kind === 'home')?.target).toBe(join(row.run_dir as string, 'home'));
    expect(log).toMatch(/system agent confined with bubblewrap: the system read-only/);
  });

  it('a folder the user lets the agent write to is writable, and nothing else is', async () => {
    const { attempts, run, m } = await hostileRun('required', { folderWritable: true });
    expect(run?.state).toBe('completed');
    expect(attempts.find((a) => a.target === join(m.folder, 'planted.txt'))).toMatchObject({ ok: true });
    expect(readFileSync(join(m.folder, 'planted.txt'), 'utf8')).toBe('written by an agent');
    expect(existsSync(join(m.home, 'planted.txt'))).toBe(false);
  });

  it('with the network cut, the agent cannot reach the sandbox on loopback', async () => {
    const m = await machine();
    const harness = h as Harness;
    const url = new URL(harness.sb.url);
    const probe = `require('net').connect(${Number(url.port)}, '127.0.0.1').on('connect', () => { require('fs').writeFileSync(process.env.POSTDESK_RUN_DIR + '/reached', ''); process.exit(0) }).on('error', (e) => { require('fs').writeFileSync(process.env.POSTDESK_RUN_DIR + '/refused', e.code); process.exit(0) })`;
    const run = async (network: boolean) => {
      const ex = harness.another({
        agent: { command: process.execPath, args: ['-e', probe] },
        folder: m.folder,
        confinement: () => ({
          mode: 'required',
          network,
          readPaths: [],
          hide: [harness.dir],
          folderWritable: false,
        }),
      }).executor;
      await ex.runOnce();
      await harness.advance(HOUR);
      await ex.runOnce();
      return ex.journal.list()[0]?.run_dir as string;
    };
    const open = await run(true);
    expect(existsSync(join(open, 'reached'))).toBe(true);
    const cut = await run(false);
    expect(existsSync(join(cut, 'reached'))).toBe(false);
    expect(readFileSync(join(cut, 'refused'), 'utf8')).toMatch(/ENETUNREACH|ECONNREFUSED/);
  });
});

describe.skipIf(process.platform !== 'linux')('confinement policy where no confiner is found', () => {
  it('unconfined, the same hostile agent reaches everything (what the confined test rules out)', async () => {
    const { attempts, run, plan, m } = await hostileRun('off');
    expect(run?.state).toBe('completed');
    const ok = (kind: string, target: string) =>
      attempts.find((a) => a.kind === kind && a.target === target)?.ok;
    for (const file of plan.read) expect(ok('read', file), file).toBe(true);
    expect(ok('connect', m.socket)).toBe(true);
    expect(existsSync(join(m.home, 'planted.txt'))).toBe(true);
  });

  it('auto runs the agent unconfined and says so in the run log', async () => {
    const m = await machine();
    // A search path without bubblewrap: node is found by its absolute path, bwrap not at all.
    process.env.PATH = dirname(process.execPath);
    const harness = h as Harness;
    const ex = harness.another({
      folder: m.folder,
      confinement: () => ({ mode: 'auto', network: true, readPaths: [], hide: [], folderWritable: false }),
    }).executor;
    await ex.runOnce();
    await harness.advance(HOUR);
    await ex.runOnce();
    const row = ex.journal.list()[0];
    expect(row?.state).toBe('completed');
    const log = readFileSync(join(row?.run_dir as string, 'run.log'), 'utf8');
    expect(log).toMatch(
      /system agent runs unconfined: bubblewrap \(bwrap\) is not installed; it can read what you can read/,
    );
  });

  it('required fails the run with the reason, and the agent never starts', async () => {
    const m = await machine();
    process.env.PATH = dirname(process.execPath);
    const harness = h as Harness;
    const ex = harness.another({
      folder: m.folder,
      confinement: () => ({
        mode: 'required',
        network: true,
        readPaths: [],
        hide: [],
        folderWritable: false,
      }),
    }).executor;
    await ex.runOnce();
    await harness.advance(HOUR);
    await ex.runOnce();
    const [run] = await harness.runs(ex);
    expect(run?.state).toBe('failed');
    expect(run?.error).toBe(
      'agent could not be started: agent confinement is required, but bubblewrap (bwrap) is not installed',
    );
    const row = ex.journal.list()[0];
    expect(existsSync(join(row?.run_dir as string, 'output.json'))).toBe(false);
  });
});
