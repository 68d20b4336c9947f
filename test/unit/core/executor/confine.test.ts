import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunLog } from '../../../../src-main/core/executor/run-log';
import { bubblewrapArgs, type PathKind } from '../../../../src-main/core/executor/confine/bubblewrap';
import { confineLaunch } from '../../../../src-main/core/executor/confine/launch';
import { sbplString, seatbeltProfile } from '../../../../src-main/core/executor/confine/sandbox-exec';
import {
  hostFacts,
  programPaths,
  type ConfinementView,
} from '../../../../src-main/core/executor/confine/view';

const view = (over: Partial<ConfinementView> = {}): ConfinementView => ({
  home: '/home/me',
  runDir: '/home/me/.local/share/postdesk/executor/runs/r1',
  agentHome: '/home/me/.local/share/postdesk/executor/runs/r1/home',
  agentTmp: '/home/me/.local/share/postdesk/executor/runs/r1/tmp',
  folders: [{ path: '/home/me/clips', writable: false }],
  readPaths: ['/opt/agent/bin'],
  hide: ['/home/me/.local/share/postdesk', '/home/me/.local/share/keyrings', '/run/user/1000'],
  network: true,
  ...over,
});

/** A machine where these directories exist (and nothing else but /dev/null). */
const machine =
  (dirs: string[], files: string[] = []) =>
  (p: string): PathKind =>
    dirs.includes(p) ? 'dir' : files.includes(p) ? 'other' : null;

const DIRS = [
  '/home',
  '/root',
  '/run/user',
  '/tmp',
  '/var/tmp',
  '/home/me',
  '/home/me/clips',
  '/opt/agent/bin',
  '/home/me/.local/share/postdesk',
  '/home/me/.local/share/keyrings',
  '/run/user/1000',
  '/home/me/.local/share/postdesk/executor/runs/r1',
];

const pairs = (args: string[]) => args.map((a, i) => `${a} ${args[i + 1] ?? ''}`);

describe('bubblewrap arguments', () => {
  it('system read-only, users’ roots emptied, the run directory read-write and the folder read-only, last', () => {
    const args = bubblewrapArgs(view(), machine(DIRS));
    expect(args.slice(0, 7)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    const p = pairs(args);
    for (const root of ['/home', '/root', '/run/user', '/tmp', '/var/tmp'])
      expect(p).toContain(`--tmpfs ${root}`);
    const runBind = args.indexOf('--bind');
    expect(args.slice(runBind, runBind + 3)).toEqual(['--bind', view().runDir, view().runDir]);
    const folder = args.lastIndexOf('--ro-bind');
    expect(args.slice(folder, folder + 3)).toEqual(['--ro-bind', '/home/me/clips', '/home/me/clips']);
    expect(folder).toBeGreaterThan(runBind);
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL']));
    expect(args).not.toContain('--unshare-net');
    expect(args.slice(-2)).toEqual(['--chdir', view().runDir]);
  });

  it('a hidden path already covered (under the emptied /home) needs no mount of its own', () => {
    const args = bubblewrapArgs(view(), machine(DIRS));
    expect(pairs(args)).not.toContain('--tmpfs /home/me/.local/share/postdesk');
    expect(pairs(args)).not.toContain('--tmpfs /run/user/1000');
  });

  it('a read path that holds a hidden one is bound first, and the hidden one covered after it', () => {
    const v = view({ home: '/srv/me', readPaths: ['/srv/me'], hide: ['/srv/me/data'], folders: [] });
    const args = bubblewrapArgs(v, machine([...DIRS, '/srv/me', '/srv/me/data']));
    const bound = args.indexOf('/srv/me');
    const covered = args.indexOf('/srv/me/data');
    expect(args[bound - 1]).toBe('--tmpfs'); // home covered first
    const readBind = args.findIndex((a, i) => a === '--ro-bind' && args[i + 1] === '/srv/me');
    expect(readBind).toBeGreaterThan(bound);
    expect(args.lastIndexOf('/srv/me/data')).toBeGreaterThan(readBind);
    expect(args[covered - 1]).toBe('--tmpfs');
  });

  it('a socket or key file outside the emptied roots is covered with /dev/null', () => {
    const v = view({ hide: ['/srv/bus', '/etc/postdesk/key'] });
    const args = bubblewrapArgs(v, machine(DIRS, ['/srv/bus', '/etc/postdesk/key']));
    expect(pairs(args)).toContain('--ro-bind /dev/null');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /srv/bus');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /etc/postdesk/key');
  });

  it('a writable folder is bound read-write; the network option unshares the network', () => {
    const args = bubblewrapArgs(
      view({ folders: [{ path: '/home/me/clips', writable: true }], network: false }),
      machine(DIRS),
    );
    expect(args.join(' ')).toContain('--bind /home/me/clips /home/me/clips');
    expect(args).toContain('--unshare-net');
  });

  it('a missing folder or read path is left out rather than failing bubblewrap', () => {
    const args = bubblewrapArgs(view(), machine(DIRS.filter((d) => d !== '/home/me/clips')));
    expect(args).not.toContain('/home/me/clips');
  });
});

describe('sandbox-exec profile', () => {
  it('reads from the widest rule to the narrowest, the run directory and folder last', () => {
    const text = seatbeltProfile(view());
    const lines = text.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)']);
    const at = (needle: string) => lines.findIndex((l) => l.includes(needle));
    expect(at('(deny file-read* file-write* (subpath "/home/me")')).toBeGreaterThan(0);
    expect(at('(allow file-read* (subpath "/opt/agent/bin"))')).toBeGreaterThan(at('(subpath "/home/me")'));
    expect(at('(subpath "/home/me/.local/share/keyrings")')).toBeGreaterThan(at('/opt/agent/bin'));
    expect(at('(global-name "com.apple.SecurityServer")')).toBeGreaterThan(0);
    expect(lines).toContain('(deny process-info*)');
    expect(lines).toContain(`(allow file-read* file-write* (subpath "${view().runDir}"))`);
    expect(lines.at(-1)).toBe('(allow file-read* (subpath "/home/me/clips"))');
    expect(text).not.toContain('(deny network*)');
  });

  it('cuts the network when asked, and lets a folder be written when allowed', () => {
    const text = seatbeltProfile(
      view({ network: false, folders: [{ path: '/Users/me/out', writable: true }] }),
    );
    expect(text).toContain('(allow file-read* file-write* (subpath "/Users/me/out"))');
    expect(text.trim().split('\n').at(-1)).toBe('(deny network*)');
  });

  it('escapes quotes and backslashes, and refuses a path with a control character', () => {
    expect(sbplString('/Users/me/a "b"\\c')).toBe('"/Users/me/a \\"b\\"\\\\c"');
    expect(() => sbplString('/Users/me/a\n(allow default)')).toThrow(/control character/);
  });
});

describe('the view', () => {
  it('reads the session bus socket from a unix:path address, and the key file', () => {
    const facts = hostFacts({
      HOME: '/home/me',
      XDG_RUNTIME_DIR: '/run/user/1000',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus,guid=abc',
      POSTDESK_API_KEY_FILE: '/etc/postdesk/key',
    });
    expect(facts).toEqual({
      home: '/home/me',
      runtimeDir: '/run/user/1000',
      busSocket: '/run/user/1000/bus',
      apiKeyFile: '/etc/postdesk/key',
    });
    expect(
      hostFacts({ HOME: '/h', DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=/tmp/dbus-x' }).busSocket,
    ).toBeNull();
  });

  it('the program’s own directory is readable, never a directory that holds the home directory', () => {
    const paths = programPaths({ command: process.execPath, args: [] }, '/nonexistent-home', '');
    expect(paths).toContain(dirname(realpathSync(process.execPath)));
    const home = mkdtempSync(join(tmpdir(), 'confine-home-'));
    try {
      const script = join(home, 'agent.sh');
      mkdirSync(join(home, 'agents'));
      const nested = join(home, 'agents', 'agent.mjs');
      writeFileSync(script, '');
      writeFileSync(nested, '');
      const got = programPaths({ command: '/bin/sh', args: [script, nested, 'relative.txt'] }, home, '');
      expect(got).toContain(realpathSync(script));
      expect(got).toContain(realpathSync(join(home, 'agents')));
      expect(got).not.toContain(home);
      expect(got).not.toContain(realpathSync(home));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('confineLaunch where no confiner exists', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const policy = (mode: 'off' | 'auto' | 'required') => () => ({
    mode,
    network: true,
    readPaths: [],
    hide: [],
    folderWritable: false,
  });
  const command = { command: process.execPath, args: ['-e', ''] };

  it('auto runs the command as given and says why in the run log', async () => {
    dir = await mkdtemp(join(tmpdir(), 'confine-'));
    const logFile = join(dir, 'run.log');
    const launch = await confineLaunch(
      command,
      { PATH: '/usr/bin' },
      { runDir: dir, log: RunLog.open(tmpdir(), dir) },
      policy('auto'),
      {
        platform: 'win32',
      },
    );
    expect(launch).toMatchObject({ kind: 'run', command, confiner: 'none' });
    expect(await readFile(logFile, 'utf8')).toMatch(
      /system agent runs unconfined: no confiner is available on Windows; it can read what you can read\n$/,
    );
  });

  it('required refuses with the reason', async () => {
    dir = await mkdtemp(join(tmpdir(), 'confine-'));
    const launch = await confineLaunch(
      command,
      {},
      { runDir: dir, log: RunLog.open(tmpdir(), dir) },
      policy('required'),
      { platform: 'win32' },
    );
    expect(launch).toEqual({
      kind: 'refused',
      reason: 'agent confinement is required, but no confiner is available on Windows',
    });
  });

  it('off runs the command as given, and the log says the agent has the user’s rights', async () => {
    dir = await mkdtemp(join(tmpdir(), 'confine-'));
    const logFile = join(dir, 'run.log');
    const launch = await confineLaunch(
      command,
      {},
      { runDir: dir, log: RunLog.open(tmpdir(), dir) },
      policy('off'),
    );
    expect(launch).toMatchObject({ kind: 'run', command });
    expect(await readFile(logFile, 'utf8')).toMatch(
      /agent confinement is off: the agent runs with your rights/,
    );
  });

  it('on macOS the command is wrapped in sandbox-exec with the profile inline', async () => {
    dir = await mkdtemp(join(tmpdir(), 'confine-'));
    const launch = await confineLaunch(
      command,
      { PATH: '/usr/bin', HOME: '/Users/me' },
      { runDir: dir, log: RunLog.open(tmpdir(), dir) },
      policy('required'),
      {
        platform: 'darwin',
        host: { home: '/Users/me', runtimeDir: null, busSocket: null, apiKeyFile: null },
      },
    );
    // Only a Mac has /usr/bin/sandbox-exec; elsewhere the same call refuses, which is also the promise.
    if (process.platform === 'darwin') {
      expect(launch).toMatchObject({ kind: 'run', command: { command: '/usr/bin/sandbox-exec' } });
      if (launch.kind === 'run') {
        expect(launch.command.args[0]).toBe('-p');
        expect(launch.command.args.slice(2)).toEqual([process.execPath, '-e', '']);
        expect(launch.env.HOME).toBe(join(realpathSync(dir), 'home'));
      }
    } else {
      expect(launch).toEqual({
        kind: 'refused',
        reason: 'agent confinement is required, but sandbox-exec is missing from this Mac',
      });
    }
  });
});
